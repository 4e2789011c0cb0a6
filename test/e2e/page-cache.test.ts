// Pages served from the edge cache in Chromium, against the product as `npm run preview` runs it
// (test/e2e/global-setup.ts): a hit is restamped with its own nonce, so it hydrates under the
// strict CSP like a fresh render, with JavaScript and without.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { logLines, openPage, useBrowser } from "./support";
import { heading, marker, untilHomeHydrated } from "./navigation-helpers";

const browser = useBrowser();

/** A URL of the page that no other visit used: its first visit renders it, the next is a hit. */
const fresh = (path: string) => `${path}?visit=${crypto.randomUUID().slice(0, 8)}`;

/** The cache field of the last document request for `path` the worker logged. */
async function lastCache(path: string) {
  const lines = await logLines();
  return lines.filter((line) => line.kind === "html" && line.path === path).at(-1)?.cache;
}

/** Visits `url` twice; the second visit is a cache hit. */
async function visitTwice(page: Page, url: string) {
  await page.goto(url);
  await expect.poll(() => lastCache(new URL(url, "http://x").pathname)).toBe("miss");
  const response = await page.goto(url);
  await expect.poll(() => lastCache(new URL(url, "http://x").pathname)).toBe("hit");
  return response!;
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
    const url = fresh("/");
    const seen: string[] = [];
    for (const visit of ["miss", "hit", "hit"]) {
      const response = (await page.goto(url))!;
      await expect.poll(() => lastCache("/")).toBe(visit);
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
    const response = await visitTwice(page, fresh("/"));
    expect(response.headers()["cache-control"]).toBe("private, no-cache");
    await untilHomeHydrated(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows /slow whole at once, then navigates client-side from it (hydrated)", async () => {
    const { page, problems, context } = await openPage(browser());
    await visitTwice(page, fresh("/slow"));
    expect(await page.getByTestId("slow-value").isVisible()).toBe(true);
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
    await visitTwice(page, fresh("/slow"));
    expect(await page.getByTestId("slow-value").isVisible()).toBe(true);
    expect(await page.getByTestId("slow-value").innerText()).toMatch(/^Arrived after \d+ ms/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
