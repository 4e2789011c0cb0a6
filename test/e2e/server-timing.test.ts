// Server-Timing as a browser reads it: the navigation's serverTiming entries, on a page served as
// `npm run preview` serves it (the production build in workerd: test/e2e/global-setup.ts).
import { describe, expect, it } from "vitest";
import { openPage, useBrowser } from "./support";

const browser = useBrowser();

describe("Server-Timing in the browser", () => {
  it("gives the document's navigation entry the server's timings: a stored shell's lookup", async () => {
    const { page, context } = await openPage(browser());
    const timings = () =>
      page.evaluate(() => {
        const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
        return navigation!.serverTiming.map(({ name, duration, description }) => ({
          name,
          duration,
          description,
        }));
      });
    // The guestbook's shell: made and stored by one visit (if no earlier test's did), then resumed.
    await expect
      .poll(async () => {
        expect((await page.goto("/guestbook"))?.status()).toBe(200);
        return (await timings()).find((entry) => entry.name === "cache")?.description;
      })
      .toBe("shell");
    const entries = await timings();
    // No resume: a stored shell's prelude is sent before React resumes its holes (the log line has it).
    expect(entries.map((entry) => entry.name)).toEqual(["match", "cache"]);
    for (const entry of entries) expect(entry.duration, entry.name).toBeGreaterThanOrEqual(0);
    await context.close();
  });
});
