// `npm run dev` keeps the browser console clean through the example's flows: a passkey sign-up,
// client navigations, a guestbook post, a plain form's sign-out and a passkey sign-in. Each lands
// on a new document or a new page where the site's view transitions run, as a developer sees them.
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, useBrowser } from "./support";
import { addVirtualAuthenticator } from "../support/virtual-authenticator";

const browser = useBrowser();
/** The dev server by name: WebAuthn refuses an IP address (127.0.0.1) as the relying party's id. */
const devURL = inject("devURL").replace("//127.0.0.1:", "//localhost:");

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

/** Waits until the page's script has turned `button` on (the page is hydrated). */
const enabled = (page: Page, button: string) =>
  expect.poll(() => page.getByRole("button", { name: button, exact: true }).isEnabled()).toBe(true);

/** Follows the header's (or the page's) link named `name`, to `path`. */
async function follow(page: Page, name: string, path: string) {
  await page.getByRole("link", { name, exact: true }).first().click();
  await page.waitForURL((url) => url.pathname === path);
}

describe("npm run dev's console", () => {
  it("has no error through sign-up, navigations, a post, sign-out and sign-in", async () => {
    // The first request of a route compiles it, in development: start from a warm server.
    for (const path of ["/sign-in", "/account", "/account/passkeys", "/guestbook", "/"]) {
      await (await fetch(`${inject("devURL")}${path}`)).text();
    }
    const { page, context, problems } = await openPage(browser(), { baseURL: devURL });
    await addVirtualAuthenticator(context, page);
    const name = unique("Dev");

    // Sign up: a new passkey, then the account page.
    await page.goto("/sign-in");
    await enabled(page, "Create account");
    await page.getByLabel("Display name").fill(name);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expect.poll(() => page.getByTestId("account-name").textContent()).toBe(name);

    // To the guestbook by the header's link, and a post there.
    await follow(page, "Guestbook", "/guestbook");
    await expect.poll(() => page.getByTestId("signed-in-as").textContent()).toBe(`Signed in as ${name}`);
    const message = unique("from dev");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill(message);
    await page.getByRole("button", { name: "Sign the guestbook" }).click();
    await expect.poll(() => page.getByTestId("entry").filter({ hasText: message }).count()).toBe(1);

    // Around the account's pages by link, then out with the plain form.
    await follow(page, "Account", "/account");
    await follow(page, "Passkeys", "/account/passkeys");
    await follow(page, "Your account", "/account");
    await enabled(page, "Sign out");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");

    // In again with the passkey.
    await page.goto("/sign-in");
    await enabled(page, "Sign in with a passkey");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expect.poll(() => page.getByTestId("account-name").textContent()).toBe(name);
    // An aborted transition into a document is reported as the document is first shown: two
    // frames on, its error (sent before this answer) is in `problems`.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );

    expect(problems).toEqual([]);
    await context.close();
  });
});
