// Server-Timing as a browser reads it: the navigation's serverTiming entries, on a page served as
// `npm run preview` serves it (the production build in workerd: test/e2e/global-setup.ts).
import { describe, expect, inject, it } from "vitest";
import { logLines, openPage, useBrowser } from "./support";

const browser = useBrowser();

describe("Server-Timing in the browser", () => {
  it("gives the document's navigation entry a stored shell's lookup, and its ray", async () => {
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
    // No resume: a stored shell's prelude is sent before React resumes its holes (the log line has
    // it). The ray (Web Vitals are on: a DSN, every load sampled locally) names the document's line.
    // The guestbook's middleware (who the visitor is) runs before the lookup.
    expect(entries.map((entry) => entry.name)).toEqual(["match", "middleware", "cache", "ray"]);
    // Named as in the source, through the minified build (the guestbook's `session` middleware).
    expect(entries.find((entry) => entry.name === "middleware")?.description).toBe("session");
    for (const entry of entries) expect(entry.duration, entry.name).toBeGreaterThanOrEqual(0);
    const ray = entries.at(-1)!;
    expect(ray.duration).toBe(0);
    const line = (await logLines()).find((logged) => logged.ray === ray.description);
    expect(line).toMatchObject({ kind: "html", path: "/guestbook" });
    expect(Object.keys(line!.timings as object)).toContain("middleware:session");
    await context.close();
  });

  it("names a layout's middleware as its source does, in the header and the log line", async () => {
    const response = await fetch(`${inject("baseURL")}/account`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Server-Timing")).toMatch(/middleware;dur=[\d.]+;desc="requireAccount"/);
    const ray = /\bray;(?:dur=0;)?desc="([^"]+)"/.exec(response.headers.get("Server-Timing") ?? "")?.[1];
    await expect
      .poll(async () => (await logLines()).find((logged) => logged.ray === ray)?.timings)
      .toHaveProperty(["middleware:requireAccount"]);
  });
});
