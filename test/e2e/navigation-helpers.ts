// Helpers for the client-navigation tests: observing a page the way a visitor (or a screen reader) would.
import { expect } from "vitest";
import type { Page } from "playwright-core";

/** Page-data requests the page makes, as path + query without the `_data` marker. */
export function recordPageData(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (!request.headers()["x-page-data"]) return;
    const url = new URL(request.url());
    url.searchParams.delete("_data");
    seen.push(url.pathname + url.search);
  });
  return seen;
}

/** Clicks the home page's counter until React answers it: clicks before hydration do nothing. */
export async function untilHomeHydrated(page: Page) {
  const counter = page.getByTestId("counter");
  await expect
    .poll(async () => {
      await counter.click();
      return counter.textContent();
    })
    .not.toBe("Clicked 0 times");
}

/** Opens "/" and waits until React answers clicks; leaves a marker only this document has. */
export async function openHome(page: Page) {
  await page.goto("/");
  await untilHomeHydrated(page);
  await page.evaluate(() => Object.assign(window, { __document: "first" }));
}

/** A link outside the page's own content (the footer), to reach addresses no page links to. */
export const addLink = (page: Page, href: string, text: string) =>
  page.evaluate(
    ([href, text]) => {
      const link = Object.assign(document.createElement("a"), { href, textContent: text });
      document.querySelector("footer")!.appendChild(link);
    },
    [href, text] as const,
  );
export const marker = (page: Page) => page.evaluate(() => (window as { __document?: string }).__document);
export const heading = (page: Page) => page.locator("h1").first().textContent();
export const announced = (page: Page) => page.locator("#route-announcer").textContent();
export const focused = (page: Page) => page.evaluate(() => document.activeElement?.id);
export const scrolled = (page: Page) => page.evaluate(() => Math.round(scrollY));
/**
 * Once the page's view transition (a navigation's cross-fade) is over: Chromium takes no clicks
 * during one, and a test that clicks then would only see Playwright retry, scrolling as it does.
 */
export const transitionDone = (page: Page) =>
  page.waitForFunction(
    () => !(document as Document & { activeViewTransition?: ViewTransition | null }).activeViewTransition,
  );
export const location = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;

/** Chromium logs every non-2xx subresource; these answers are the point of the test. */
export { unexpectedProblems as unexpected } from "verge/test/browser";

/**
 * Opens `path` below the tests' app's nested layouts once hydrated (the outer layout's counter
 * counts a click only then), and marks the document; resolves to the counter's text.
 */
export async function openLayoutsHydrated(page: Page, path: string) {
  await page.goto(path);
  const counter = await outerCounterHydrated(page);
  await page.evaluate(() => Object.assign(window, { __document: "first" }));
  return counter.textContent();
}

/** Waits until the outer layout's counter answers a click (React has hydrated it); the counter. */
export async function outerCounterHydrated(page: Page) {
  const counter = page.getByTestId("outer-count");
  await expect
    .poll(async () => {
      await counter.click();
      return counter.textContent();
    })
    .not.toBe("outer count 0");
  return counter;
}

/** Opens `path` once React handles its forms (before hydration they post as plain HTML), and marks the document. */
export async function openFormsHydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
  await page.evaluate(() => Object.assign(window, { __document: "first" }));
}
