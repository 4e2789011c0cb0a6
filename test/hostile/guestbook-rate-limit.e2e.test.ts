// A visitor over the signing limit is told to wait, in the form, with what they typed still there.
import { beforeEach, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, useBrowser } from "../e2e/support";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";

const browser = useBrowser();

const LIMIT = 10;
const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
/** An address in a /64 of its own: the limit counts a visitor by its IPv6 network. */
const visitorIp = () =>
  `fd00:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}::1`;

/** Signs LIMIT times as `ip` with plain posts, each accepted. */
async function useUpLimit(ip: string) {
  const base = inject("baseURL");
  for (let i = 0; i < LIMIT; i++) {
    const response = await fetch(`${base}/guestbook`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "CF-Connecting-IP": ip },
      body: new URLSearchParams({ _action: "sign", name: unique("filler"), message: `signature ${i}` }),
    });
    expect(response.status).toBe(303);
  }
}

/** Fills the form and sends it; the POST's status. */
async function signAs(page: Page, name: string, message: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Message").fill(message);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Sign the guestbook" }).click(),
  ]);
  return response.status();
}

// The wait may outlast vitest's default hook timeout (10 s).
beforeEach(() => awaitFreshWindow(), FRESH_WINDOW_TIMEOUT_MS);

describe("the guestbook's signing limit in the browser", () => {
  it("without JavaScript: 429, the page says to wait and keeps the typed values", async () => {
    const ip = visitorIp();
    await useUpLimit(ip);
    const { page, context } = await openPage(browser(), {
      javaScriptEnabled: false,
      extraHTTPHeaders: { "CF-Connecting-IP": ip },
    });
    await page.goto("/guestbook");
    const name = unique("over");
    expect(await signAs(page, name, "one too many")).toBe(429);
    await page.waitForLoadState("load");
    expect(await page.getByRole("alert").filter({ hasText: "wait a minute" }).textContent()).toContain(
      "What you typed is still in the form",
    );
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await page.getByLabel("Message").inputValue()).toBe("one too many");
    expect(await page.getByTestId("entry").filter({ hasText: name }).count()).toBe(0);
    await context.close();
  });

  it("with JavaScript: the form says to wait, keeps the typed values, and stays on the page", async () => {
    const ip = visitorIp();
    const { page, context } = await openPage(browser(), { extraHTTPHeaders: { "CF-Connecting-IP": ip } });
    await page.goto("/guestbook");
    await page.waitForFunction(() => {
      const form = document.querySelector("form[method=post]");
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
    });
    await useUpLimit(ip);
    const name = unique("over-js");
    expect(await signAs(page, name, "one too many")).toBe(429);
    const alert = page.getByTestId("form-error");
    await expect.poll(() => alert.textContent()).toContain("wait a minute");
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await page.getByLabel("Message").inputValue()).toBe("one too many");
    expect(await page.locator("form button[type=submit]").isDisabled()).toBe(false);
    expect(await page.getByTestId("entry").filter({ hasText: name }).count()).toBe(0);
    await context.close();
  });
});
