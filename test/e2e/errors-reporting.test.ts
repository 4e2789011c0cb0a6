// The browser reporter in Chromium against npm run preview: what it reports, and when it stops.
import { beforeEach, describe, expect, it } from "vitest";
import {
  ingestControl,
  ingestEnvelopes,
  useBrowser,
  openPage,
  pageErrorCount,
  pageFetches,
  pageTurn,
  trackFetches,
} from "./support";
import { eventOf } from "../support/envelope";

const control = ingestControl;
const envelopes = ingestEnvelopes;

const browser = useBrowser();
beforeEach(async () => {
  await control("reset");
});

describe("hydration mismatch", () => {
  it("is reported through /monitoring and not shown", async () => {
    const { page, context } = await openPage(browser());
    // The server's HTML is altered on the way, so the browser's first render differs from it.
    await page.route("**/errors", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("<h1>Errors</h1>", "<h1>Errorz</h1>");
      await route.fulfill({ response, body: html });
    });
    await page.goto("/errors");
    await expect.poll(async () => (await envelopes()).length).toBe(1);
    const exception = eventOf((await envelopes())[0]!)!.exception.values[0];
    // React hands recoverable errors to the global reportError(), which the reporter listens to.
    expect(exception.mechanism.type).toBe("onerror");
    // Production React names the error by code: #418 is a hydration mismatch.
    expect(exception.value).toMatch(/React error #418|hydrat/i);
    expect(await page.locator("h1").textContent()).toBe("Errors");
    expect(await page.getByTestId("app-error").count()).toBe(0);
    await context.close();
  });
});

describe("browser reporter limits", () => {
  /** Throws `count` uncaught errors in the page (each from its own timer, as a real bug would). */
  const throwInPage = (page: import("playwright-core").Page, messages: string[]) =>
    page.evaluate((list) => {
      for (const message of list)
        setTimeout(() => {
          throw new Error(message);
        });
    }, messages);

  async function openErrorsPage() {
    const observed = await openPage(browser());
    await trackFetches(observed.page);
    await observed.page.goto("/errors");
    await observed.page.waitForFunction(() => document.querySelector("#__verge_page") !== null);
    const posts = async () =>
      (await pageFetches(observed.page)).filter(
        (call) => call.method === "POST" && call.path === "/monitoring",
      );
    return { ...observed, posts };
  }

  /** Waits until the page has seen `count` uncaught errors, and a turn more for its handlers. */
  async function untilThrown(page: import("playwright-core").Page, count: number) {
    await expect.poll(() => pageErrorCount(page)).toBe(count);
    await pageTurn(page);
  }

  it("stops reporting after a 429 from the ingest", async () => {
    await control("mode?mode=rate-limit");
    const { page, context, posts } = await openErrorsPage();
    await throwInPage(page, ["first failure"]);
    // The 429 has reached the reporter.
    await expect.poll(async () => (await posts()).map((call) => call.status)).toEqual([429]);
    await pageTurn(page);
    await throwInPage(page, ["second failure", "third failure"]);
    await untilThrown(page, 3);
    expect(await posts()).toHaveLength(1);
    await context.close();
  });

  it("sends the same error once and at most 10 reports per page view", async () => {
    const { page, context, posts } = await openErrorsPage();
    await throwInPage(
      page,
      Array.from({ length: 14 }, (_, i) => `failure ${i % 12}`),
    );
    await untilThrown(page, 14);
    await expect.poll(async () => (await posts()).length).toBe(10);
    await pageTurn(page);
    expect(await posts()).toHaveLength(10);
    await expect.poll(async () => (await envelopes()).length).toBe(10);
    await context.close();
  });
});
