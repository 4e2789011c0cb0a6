// A stolen session cookie is not enough to add a passkey, in a real browser: "Add a passkey" is
// refused until the visitor confirms it is them with a passkey they have (Chromium's virtual
// authenticator), and the account page then shows the new passkey among its security events.
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, useBrowser } from "../e2e/support";
import { addVirtualAuthenticator, removeVirtualAuthenticator } from "../support/virtual-authenticator";

const browser = useBrowser();

/** The preview server by name: WebAuthn refuses an IP address as the relying party's id. */
const byName = () => ({ baseURL: inject("baseURL").replace("//127.0.0.1:", "//localhost:") });

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

/** Opens `path` and waits until its passkey buttons are on (the page's script has run). */
async function openReady(page: Page, path: string, button: string) {
  await page.goto(path);
  await expect.poll(() => page.getByRole("button", { name: button }).isEnabled()).toBe(true);
}

describe("adding a passkey in Chromium", () => {
  it("is refused until the visitor confirms with a passkey, then adds it and records it", async () => {
    const { page, context } = await openPage(browser(), byName());
    const phone = await addVirtualAuthenticator(context, page);
    await openReady(page, "/sign-in", "Create account");
    await page.getByLabel("Display name").fill(unique("Proving"));
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/account");

    // The session alone: refused, with the reason, and nothing added.
    await openReady(page, "/account/passkeys", "Add a passkey");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toMatch(/Confirm it.s you/);
    expect(await page.getByTestId("passkey").count()).toBe(1);

    // Proved with the phone's passkey: for five minutes, this session may change the passkeys.
    await page.getByRole("button", { name: "Confirm with a passkey" }).click();
    await expect.poll(() => page.getByTestId("proof-status").textContent()).toContain("Confirmed");
    await removeVirtualAuthenticator(phone);
    await addVirtualAuthenticator(context, page);
    await openReady(page, "/account/passkeys", "Add a passkey");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => page.getByTestId("passkey").count()).toBe(2);

    await page.goto("/account");
    const events = page.getByTestId("security-event");
    await expect
      .poll(() => events.allTextContents())
      .toEqual([
        expect.stringContaining("Passkey added: Passkey 2 (Chrome on Linux)"),
        expect.stringContaining("Signed in (Chrome on Linux)"),
      ]);
    expect(await page.getByTestId("session").allTextContents()).toEqual([
      expect.stringContaining("Chrome on Linux (This device)"),
    ]);
    await context.close();
  });
});
