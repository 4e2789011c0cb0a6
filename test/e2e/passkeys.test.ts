// Passkeys in a real browser: Chromium's virtual authenticator against the preview server. Create
// an account, sign out, sign in again, add a second device's passkey, remove one, and a removed
// passkey no longer signs in. Without JavaScript, /sign-in says passkeys need it.
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, useBrowser } from "./support";
import {
  addVirtualAuthenticator,
  byName,
  listCredentials,
  removeVirtualAuthenticator,
  unexpectedProblems,
} from "verge/test/browser";

const browser = useBrowser();

/** The preview server by name: WebAuthn refuses an IP address (127.0.0.1) as the relying party's id. */
const preview = () => ({ baseURL: byName(inject("baseURL")) });

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
/** Chromium logs every 4xx fetch as a console error; a refused passkey is one, nothing else is expected. */

/** Opens `path` and waits until its passkey buttons are on (the page's script has run). */
async function openReady(page: Page, path: string, button: string) {
  await page.goto(path);
  await expect.poll(() => page.getByRole("button", { name: button }).isEnabled()).toBe(true);
}

async function signOut(page: Page) {
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goto("/account");
  await page.waitForURL((url) => url.pathname === "/sign-in");
}

describe("passkeys with Chromium's virtual authenticator", () => {
  it("create, sign out, sign in, add a second device, remove one: the removed one no longer signs in", async () => {
    const { page, context, problems } = await openPage(browser(), preview());
    const phone = await addVirtualAuthenticator(context, page);
    const name = unique("Ada");

    // Create the account; a signed-out visit to /account/passkeys comes back there.
    await page.goto("/account/passkeys");
    await page.waitForURL((url) => url.pathname === "/sign-in");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/account/passkeys");
    await expect.poll(() => page.getByRole("button", { name: "Create account" }).isEnabled()).toBe(true);
    await page.getByLabel("Display name").fill(name);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/account/passkeys");
    await expect.poll(() => page.getByTestId("account-name").textContent()).toBe(name);
    expect(await page.getByTestId("passkey").count()).toBe(1);
    expect(await listCredentials(phone)).toHaveLength(1);

    // Sign out, then in again with the passkey.
    await signOut(page);
    await openReady(page, "/sign-in", "Sign in with a passkey");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    expect(await page.getByTestId("account-name").textContent()).toBe(name);

    // Signed in, the guestbook shows the name, and a Delete button on the visitor's own entry only.
    await page.goto("/guestbook");
    await expect.poll(() => page.getByTestId("signed-in-as").textContent()).toBe(`Signed in as ${name}`);
    const message = unique("mine");
    const sign = async (text: string) => {
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Message").fill(text);
      await page.getByRole("button", { name: "Sign the guestbook" }).click();
      const entry = page.getByTestId("entry").filter({ hasText: text });
      await expect.poll(() => entry.getByRole("button", { name: "Delete" }).count()).toBe(1);
      return entry;
    };
    const mine = await sign(message);
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(1);
    await sign(unique("also mine"));
    // Once more, as a visit brings it (its entries a stored shell, both Delete buttons holes of it
    // that read one value of the visitor's): it hydrates, and Delete works with JavaScript.
    await page.goto("/guestbook");
    await expect.poll(() => page.getByRole("button", { name: "Delete" }).count()).toBe(2);
    // Hydrated: React has its props on each Delete form (the hole's script read the value).
    await page.waitForFunction(() =>
      [...document.querySelectorAll("form[method=post]")]
        .filter((form) => form.querySelector("[name=_action][value=delete]"))
        .every((form) => Object.keys(form).some((key) => key.startsWith("__reactProps"))),
    );
    await mine.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => mine.count()).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: "Delete" }).count()).toBe(1);

    // Adding or removing a passkey needs a fresh proof with one the account has: the phone's.
    await openReady(page, "/account/passkeys", "Confirm with a passkey");
    await page.getByRole("button", { name: "Confirm with a passkey" }).click();
    await expect.poll(() => page.getByTestId("proof-status").textContent()).toContain("Confirmed");

    // A second device: its own authenticator (the first one removed, so the browser uses the laptop).
    await removeVirtualAuthenticator(phone);
    const laptop = await addVirtualAuthenticator(context, page);
    await openReady(page, "/account/passkeys", "Add a passkey");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => page.getByTestId("passkey").count()).toBe(2);
    expect(await page.getByTestId("passkey-name").allTextContents()).toEqual(["Passkey 1", "Passkey 2"]);
    const [laptopKey] = await listCredentials(laptop);

    // Remove the laptop's passkey (the second one); the first, the phone's, stays.
    await page.getByTestId("passkey").nth(1).getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.getByTestId("passkey").count()).toBe(1);
    expect(await page.getByTestId("passkey-name").allTextContents()).toEqual(["Passkey 1"]);

    // The last one cannot go: a clear message, and it stays.
    await page.getByTestId("passkey").first().getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.getByTestId("passkeys-message").textContent()).toContain("last passkey");
    expect(await page.getByTestId("passkey").count()).toBe(1);

    // The laptop still holds its credential, but the site no longer knows it: no sign-in.
    await signOut(page);
    expect((await listCredentials(laptop)).map((c) => c.credentialId)).toContain(laptopKey!.credentialId);
    await openReady(page, "/sign-in", "Sign in with a passkey");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain("could not be checked");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await page.goto("/account");
    await page.waitForURL((url) => url.pathname === "/sign-in");
    // Refused on purpose: the last passkey (409) and the forgotten one signing in (400).
    expect(unexpectedProblems(problems, 409, 400)).toEqual([]);
    await context.close();
  });

  it("without JavaScript, /sign-in says passkeys need it and its buttons do nothing", async () => {
    const { page, context } = await openPage(browser(), { ...preview(), javaScriptEnabled: false });
    const response = await page.goto("/sign-in");
    expect(response!.status()).toBe(200);
    expect(await page.getByTestId("passkey-note").textContent()).toContain("Passkeys need JavaScript");
    expect(await page.getByRole("button", { name: "Create account" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).isDisabled()).toBe(true);
    await context.close();
  });
});
