// After signing out, Back must not show the account again: not from the back/forward cache (the
// page as it was), nor from the HTTP cache (its HTML without a request). Chromium with its
// back/forward cache on, and a virtual authenticator for the account.
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, useBrowser } from "../e2e/support";
import { addVirtualAuthenticator } from "../support/virtual-authenticator";

const browser = useBrowser({ backForwardCache: true });

/** The preview server by name: WebAuthn refuses an IP address as the relying party's id. */
const byName = () => ({ baseURL: inject("baseURL").replace("//127.0.0.1:", "//localhost:") });

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

/** What the page shows now: its text, the account's name and passkeys if any. */
const shown = (page: Page) =>
  page.evaluate(() => ({
    path: location.pathname,
    text: document.body.innerText,
    passkeys: document.querySelectorAll("[data-testid=passkey]").length,
    restored: (window as { __restored?: boolean }).__restored ?? false,
  }));

/** A new account, signed in on /account; its display name. */
async function signedUp(page: Page) {
  const name = unique("Leaving");
  await page.goto("/sign-in");
  await expect.poll(() => page.getByRole("button", { name: "Create account" }).isEnabled()).toBe(true);
  await page.getByLabel("Display name").fill(name);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((url) => url.pathname === "/account");
  return name;
}

/** Presses Back twice (to /account, then /account/passkeys): signed out, neither shows the account. */
async function expectGoneOnBack(page: Page, name: string) {
  for (const step of ["/account", "/account/passkeys"]) {
    await page.goBack({ waitUntil: "commit" });
    // What Back shows first: a restored or cached copy would be there at once, with no request.
    const first = await shown(page).catch(() => null);
    if (first) {
      expect(first.text, `Back to ${step}`).not.toContain(name);
      expect(first.passkeys, `Back to ${step}`).toBe(0);
      expect(first.restored, `Back to ${step}`).toBe(false);
    }
    // Then the server's answer: signed out, so to /sign-in.
    await page.waitForURL((url) => url.pathname === "/sign-in");
    const settled = await shown(page);
    expect(settled.text).not.toContain(name);
    expect(settled.passkeys).toBe(0);
  }
}

describe("Back after signing out", () => {
  it("shows neither /account nor /account/passkeys again, from any cache", async () => {
    const { page, context } = await openPage(browser(), byName());
    await addVirtualAuthenticator(context, page);
    const name = await signedUp(page);

    // Each a document of its own, as a visitor who types the address or reloads gets them.
    await page.goto("/account/passkeys");
    expect(await page.getByTestId("passkey").count()).toBe(1);
    await page.goto("/account");
    expect(await page.getByTestId("account-name").textContent()).toBe(name);
    await page.evaluate(() =>
      addEventListener("pageshow", (event) => Object.assign(window, { __restored: event.persisted })),
    );
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");

    await expectGoneOnBack(page, name);
    await context.close();
  });

  it("nor after client navigations between them (page data, not documents)", async () => {
    const { page, context } = await openPage(browser(), byName());
    await addVirtualAuthenticator(context, page);
    const name = await signedUp(page);
    const nav = page.getByRole("navigation", { name: "Account" });
    await nav.getByRole("link", { name: "Passkeys" }).click();
    await expect.poll(() => page.getByTestId("passkey").count()).toBe(1);
    await nav.getByRole("link", { name: "Your account" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Your account");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expectGoneOnBack(page, name);
    await context.close();
  });
});
