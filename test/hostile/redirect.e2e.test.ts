// Redirects the client router is handed that it must not follow: page-data and action answers
// naming another site or a javascript:/data: URL (as a tampered or forged answer would), and a
// page-data request the network answered with an HTTP redirect. The browser never navigates to
// a non-http(s) URL, and never shows one page's data under another page's address.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, pageTurn, TEST_APP, useBrowser } from "../e2e/support";
import { addLink, heading, location, marker, openHome } from "../e2e/navigation-helpers";

const browser = useBrowser();

/**
 * A page whose javascript: URLs would run (CSP off: the router must not rely on CSP), and a
 * record of what it logged; "http://evil.example" answers with a page of its own, offline.
 */
async function openVictim() {
  const observed = await openPage(browser(), { bypassCSP: true });
  const logged: string[] = [];
  observed.page.on("console", (message) => logged.push(message.text()));
  await observed.page.route("http://evil.example/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<h1>Evil</h1>" }),
  );
  return { ...observed, logged };
}

/** Answers the page-data request for `path` (once) with `body`, as a tampered answer would. */
const answerPageData = (page: Page, path: string, body: unknown) =>
  page.route(
    (url) => url.pathname === path && url.searchParams.has("_data"),
    (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(body) }),
    { times: 1 },
  );

const HOSTILE_TARGETS = [
  "javascript:console.log('pwned')",
  "data:text/html,<script>console.log('pwned')</script>",
  "http://evil.example/phish",
  "//evil.example/phish",
  "/\\evil.example/phish",
];

describe("a page-data answer redirecting elsewhere", () => {
  // Side by side, each in a browser context of its own: most of each is waiting on the page.
  it.concurrent.for(HOSTILE_TARGETS)(
    "to %j loads the requested page in full instead",
    async (target, { expect }) => {
      const { page, context, logged } = await openVictim();
      await openHome(page);
      await answerPageData(page, "/guestbook", { redirect: target });
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guestbook" }).click();
      await page.waitForURL((url) => url.pathname === "/guestbook", { timeout: 10_000 });
      await expect.poll(() => heading(page)).toBe("Guestbook");
      expect(await marker(page)).toBeUndefined(); // a new document: the full load
      expect(logged).not.toContain("pwned");
      await context.close();
    },
  );
});

describe("an action answer redirecting elsewhere", () => {
  it("to a javascript: URL is not navigated to", async () => {
    const target = HOSTILE_TARGETS[0];
    const { page, context, logged } = await openVictim();
    await page.goto("/guestbook");
    await page.waitForFunction(() => {
      const form = document.querySelector("form[method=post]");
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
    });
    await page.evaluate(() => Object.assign(window, { __document: "first" }));
    let posted = false;
    await page.route(
      (url) => url.pathname === "/guestbook",
      (route) => {
        if (route.request().method() !== "POST") return route.continue();
        posted = true;
        return route.fulfill({
          contentType: "application/json",
          body: JSON.stringify({ ok: true, redirect: target }),
        });
      },
    );
    await page.getByLabel("Name").fill("Mallory");
    await page.getByLabel("Message").fill("Follow me");
    await page.locator("form button[type=submit]").click();
    await expect.poll(() => posted).toBe(true);
    // The answer has been handled once the form is no longer busy; a navigation would start then.
    await page.locator("form[method=post]:not([aria-busy])").waitFor();
    await pageTurn(page);
    expect(page.url()).toMatch(/\/guestbook$/);
    expect(await marker(page)).toBe("first");
    expect(logged).not.toContain("pwned");
    await context.close();
  });
});

describe("a page-data request answered by an HTTP redirect", () => {
  it("does not show the other address's page under the requested one", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    // The network (a proxy, a login wall) sends /echo?text=asked to another page's data.
    await page.route(
      (url) =>
        url.pathname === "/echo" && url.searchParams.has("_data") && url.searchParams.get("text") === "asked",
      (route) => route.fulfill({ status: 302, headers: { Location: "/echo?text=redirected&_data=1" } }),
      { times: 1 },
    );
    await addLink(page, "/echo?text=asked", "Echo asked");
    await page.getByRole("link", { name: "Echo asked" }).click();
    await page.waitForURL((url) => url.pathname === "/echo", { timeout: 10_000 });
    await expect.poll(() => page.getByTestId("echo-output").textContent()).toBe("asked");
    expect(location(page)).toBe("/echo?text=asked");
    await context.close();
  });
});
