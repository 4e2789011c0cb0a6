// Server-Timing as a browser reads it: the navigation's serverTiming entries, on a page served as
// `npm run preview` serves it (the production build in workerd: test/e2e/global-setup.ts).
import { describe, expect, it } from "vitest";
import { openPage, useBrowser } from "./support";

const browser = useBrowser();

describe("Server-Timing in the browser", () => {
  it("gives the document's navigation entry its loader, D1 and shell timings", async () => {
    const { page, context } = await openPage(browser());
    const response = await page.goto("/guestbook");
    expect(response?.status()).toBe(200);
    const entries = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      return navigation!.serverTiming.map(({ name, duration, description }) => ({
        name,
        duration,
        description,
      }));
    });
    expect(entries.map((entry) => entry.name)).toEqual(["match", "loader", "d1", "shell"]);
    expect(entries.find((entry) => entry.name === "d1")!.description).toBe("2 queries");
    for (const entry of entries) expect(entry.duration, entry.name).toBeGreaterThanOrEqual(0);
    await context.close();
  });
});
