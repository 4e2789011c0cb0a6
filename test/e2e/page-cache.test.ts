// Pages served from the edge cache in Chromium, against the product as `npm run preview` runs it
// (test/e2e/global-setup.ts): a hit is restamped with its own nonce, so it hydrates under the
// strict CSP like a fresh render, with JavaScript and without.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { logLines, openPage, useBrowser } from "./support";
import { heading, marker, untilHomeHydrated } from "./navigation-helpers";

const browser = useBrowser();

/**
 * A URL of the page with a parameter it does not read: served from the page's one entry (which
 * earlier visits in the run may have filled), as a visitor arriving from a tracked link is.
 */
const tracked = (path: string) => `${path}?utm_source=${crypto.randomUUID().slice(0, 8)}`;

/** The document requests for `path` the worker logged. */
async function documentLines(path: string) {
  const lines = await logLines();
  return lines.filter((line) => line.kind === "html" && line.path === path);
}

/** Loads `url` in `page`; the answer, and how the cache served it (from its log line). */
async function load(page: Page, url: string) {
  const path = new URL(url, "http://x").pathname;
  const before = (await documentLines(path)).length;
  const response = (await page.goto(url))!;
  await expect.poll(async () => (await documentLines(path)).length).toBeGreaterThan(before);
  return { response, cache: (await documentLines(path)).at(-1)!.cache };
}

/** Served from the page's entry: fresh, or past maxAge while it is refreshed (earlier visits filled it). */
const FROM_CACHE = ["hit", "stale"];

/** Visits `url` twice: the first is rendered and stored (or already in the cache), the second served from it. */
async function visitTwice(page: Page, url: string) {
  expect(["miss", ...FROM_CACHE]).toContain((await load(page, url)).cache);
  const { response, cache } = await load(page, url);
  expect(FROM_CACHE).toContain(cache);
  return response;
}

/** The CSP header's nonce, and every nonce the document's scripts and preloads carry. */
async function nonces(page: Page, response: { headers(): Record<string, string> }) {
  const header = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  const inPage = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("script, link[rel=modulepreload]")].map(
      (element) => element.nonce,
    ),
  );
  return { header, inPage: [...new Set(inPage)] };
}

describe("a page served from the edge cache", () => {
  it("carries a fresh nonce on every hit, in its CSP and its scripts, with no CSP violation", async () => {
    const { page, problems, context } = await openPage(browser());
    const violations: string[] = [];
    await page.exposeFunction("__cspViolation", (text: string) => violations.push(text));
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (event) =>
        (window as unknown as { __cspViolation(text: string): void }).__cspViolation(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      ),
    );
    const url = tracked("/");
    const seen: string[] = [];
    for (const visit of [["miss", ...FROM_CACHE], FROM_CACHE, FROM_CACHE]) {
      const { response, cache } = await load(page, url);
      expect(visit).toContain(cache);
      await untilHomeHydrated(page);
      const { header, inPage } = await nonces(page, response);
      expect(inPage).toEqual([header]);
      seen.push(header!);
    }
    expect(new Set(seen).size).toBe(3);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("hydrates with its own nonce: the counter answers, no CSP violation or console error", async () => {
    const { page, problems, context } = await openPage(browser());
    const response = await visitTwice(page, tracked("/"));
    expect(response.headers()["cache-control"]).toBe("private, no-cache");
    await untilHomeHydrated(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows /slow whole at once, then navigates client-side from it (hydrated)", async () => {
    const { page, problems, context } = await openPage(browser());
    await visitTwice(page, tracked("/slow"));
    // React reveals a streamed section with a script at the end of the stored document, in an
    // animation frame (or, past the first, up to 300 ms after it): that may come after the load event.
    await page.getByTestId("slow-value").waitFor({ state: "visible", timeout: 2000 });
    expect(await page.getByTestId("slow-fallback").count()).toBe(0);
    await page.evaluate(() => Object.assign(window, { __document: "first" }));
    await expect
      .poll(async () => {
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
        return heading(page);
      })
      .toBe("verge");
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows /slow whole without JavaScript, with no console error", async () => {
    const { page, problems, context } = await openPage(browser(), { javaScriptEnabled: false });
    await visitTwice(page, tracked("/slow"));
    expect(await page.getByTestId("slow-value").isVisible()).toBe(true);
    expect(await page.getByTestId("slow-value").innerText()).toMatch(/^Arrived after \d+ ms/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
