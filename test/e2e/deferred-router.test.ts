// The client router loads on the first sign of navigation, not with the page. When it cannot
// load (offline, a failed deploy), the browser does what it would do without JavaScript.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser, openPage } from "./support";
import { heading, marker, openHome } from "./navigation-helpers";

const browser = useBrowser();

/** Every script not loaded yet fails from now on, as it would offline. */
function blockScripts(page: Page) {
  const blocked: string[] = [];
  return page
    .route("**/assets/*.js", (route) => {
      blocked.push(new URL(route.request().url()).pathname);
      return route.abort();
    })
    .then(() => blocked);
}

describe("the deferred router", () => {
  it("falls back to a full page load of a clicked link when it cannot load", async () => {
    const { page, context } = await openPage(browser());
    await openHome(page);
    const blocked = await blockScripts(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guestbook" }).click();
    await page.waitForURL((url) => url.pathname === "/guestbook");
    await expect.poll(() => heading(page)).toBe("Guestbook");
    expect(await marker(page)).toBeUndefined(); // a new document
    expect(blocked.length).toBeGreaterThan(0);
    await context.close();
  });

  it("lets the browser post a form when it cannot load, and the entry is stored", async () => {
    const { page, context } = await openPage(browser());
    const posts: number[] = [];
    page.on("response", (r) => {
      if (r.request().method() === "POST") posts.push(r.status());
    });
    await page.goto("/guestbook");
    // Hydrated: React has attached itself to the form.
    await page.waitForFunction(() =>
      Object.keys(document.querySelector("form") ?? {}).some((key) => key.startsWith("__reactFiber")),
    );
    const blocked = await blockScripts(page);
    const name = `offline-${Math.random().toString(36).slice(2, 10)}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("Posted by the browser itself");
    await page.getByRole("button", { name: "Sign the guestbook" }).click();
    await page.waitForURL((url) => url.pathname === "/guestbook");
    await expect.poll(() => page.getByTestId("entry").filter({ hasText: name }).count()).toBe(1);
    expect(posts).toEqual([303]);
    expect(blocked.length).toBeGreaterThan(0); // the router was asked for, and could not load
    await context.close();
  });
});
