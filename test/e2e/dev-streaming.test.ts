// `npm run dev` streams pages to a browser as production does: /slow's shell paints long before
// its slow section arrives. The command runs as a developer runs it, in a copy of the project
// (test/e2e/global-setup.ts), so its build never touches ours.
import { describe, expect, inject, it } from "vitest";
import { openPage, useBrowser } from "./support";

const browser = useBrowser();
const base = inject("devURL");

describe("npm run dev", () => {
  it("streams /slow to a browser that accepts gzip: the shell paints well before the slow section", async () => {
    // The first request of a route compiles it, in development: measure a warm server.
    await (await fetch(`${base}/slow`)).text();
    const { page, context } = await openPage(browser(), { baseURL: base });
    // When the slow section's value first appears in the document, on the page's own clock.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector("[data-testid=slow-value]")) return;
        Object.assign(window, { __slowAt: performance.now() });
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const sent = page.waitForRequest((request) => request.url() === `${base}/slow`);
    await page.goto("/slow");
    expect((await (await sent).allHeaders())["accept-encoding"]).toMatch(/\bgzip\b/);
    await page.getByTestId("slow-value").waitFor();
    const { response, paint, slowAt } = await page.evaluate(() => ({
      response: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).responseStart,
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
      slowAt: (window as { __slowAt?: number }).__slowAt ?? 0,
    }));
    // The slow value takes about a second: the shell must be on screen for most of it.
    const timeline = `first byte at ${response} ms, first paint at ${paint} ms, slow section at ${slowAt} ms`;
    console.log(`npm run dev, /slow in Chromium: ${timeline}`);
    expect(slowAt - paint, timeline).toBeGreaterThan(500);
    await context.close();
  });
});
