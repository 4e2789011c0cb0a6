// Server-Timing as a browser reads it: the navigation's serverTiming entries, on a page served as
// `npm run preview` serves it (the production build in workerd: test/e2e/global-setup.ts).
import { describe, expect, it } from "vitest";
import { logLines, openPage, useBrowser } from "./support";

const browser = useBrowser();

describe("Server-Timing in the browser", () => {
  it("gives the document's navigation entry its loader, D1 and shell timings, and its ray", async () => {
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
    // The ray (Web Vitals are on: a DSN, every load sampled locally) names the document's log line.
    expect(entries.map((entry) => entry.name)).toEqual(["match", "loader", "d1", "shell", "ray"]);
    expect(entries.find((entry) => entry.name === "d1")!.description).toBe("2 queries");
    for (const entry of entries) expect(entry.duration, entry.name).toBeGreaterThanOrEqual(0);
    const ray = entries.at(-1)!;
    expect(ray.duration).toBe(0);
    const line = (await logLines()).find((logged) => logged.ray === ray.description);
    expect(line).toMatchObject({ kind: "html", path: "/guestbook" });
    await context.close();
  });
});
