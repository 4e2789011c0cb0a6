// Leaving for another site and coming Back: Chromium restores the page from its back/forward
// cache (no reload), as it was: scroll, typed values, the form's key; the announcer says nothing.
// Without that cache (playwright's default), Back reloads the page and scroll is still restored.
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { byName } from "verge/test/browser";
import { openPage, TEST_APP, useBrowser } from "./support";
import {
  announced,
  heading,
  location,
  marker,
  openHome,
  scrolled,
  transitionDone,
  unexpected,
} from "./navigation-helpers";

const cached = useBrowser({ backForwardCache: true });
const uncached = useBrowser();

/**
 * Clicks a link to another site, pinned in view so the click leaves the page's scroll alone.
 * The other site's page is a plain file: a verge page there would, once hydrated, replace its
 * history entry's state, and Chromium drops a Back still pending at that moment.
 */
async function leaveForAnotherSite(page: Page, base: string) {
  await page.evaluate(
    (href) => {
      const link = Object.assign(document.createElement("a"), { href, textContent: "Elsewhere" });
      link.style.cssText = "position: fixed; top: 0; left: 0";
      document.body.appendChild(link);
    },
    // The same server under another name: another site to the browser.
    `${byName(base)}/robots.txt`,
  );
  await page.getByRole("link", { name: "Elsewhere" }).click();
  await page.waitForURL((url) => url.hostname === "localhost");
}

/** Opens the guestbook and waits until React has hydrated the form. */
async function openGuestbook(page: Page) {
  await page.goto("/guestbook");
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
}

describe("Back from another site", () => {
  it("restores the page from the back/forward cache, with scroll, typed values and its form key", async () => {
    const { page, context, problems } = await openPage(cached());
    await page.setViewportSize({ width: 360, height: 400 });
    await openGuestbook(page);
    const name = `bfcache-${Math.random().toString(36).slice(2, 10)}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("Signed after coming back");
    const key = await page.locator('input[name="_key"]').inputValue();
    await page.evaluate(() => scrollTo(0, 150));
    const y = await scrolled(page);
    expect(y).toBe(150);
    const before = await announced(page);
    await page.evaluate(() => {
      const announcer = document.getElementById("route-announcer")!;
      const said: string[] = [];
      new MutationObserver(() => said.push(announcer.textContent ?? "")).observe(announcer, {
        childList: true,
        characterData: true,
        subtree: true,
      });
      addEventListener("pageshow", (event) => Object.assign(window, { __restored: event.persisted }));
      Object.assign(window, { __document: "first", __said: said });
    });

    await leaveForAnotherSite(page, inject("baseURL"));
    // A page restored from the cache fires no load event: wait for the commit, then pageshow.
    await page.goBack({ waitUntil: "commit" });
    const restored = () => page.evaluate(() => (window as { __restored?: boolean }).__restored);
    const reasons = () =>
      page.evaluate(() =>
        JSON.stringify(
          (performance.getEntriesByType("navigation")[0] as { notRestoredReasons?: unknown })
            .notRestoredReasons,
        ),
      );
    await expect.poll(restored, { message: "pageshow with persisted" }).toBe(true);
    expect(await reasons()).toBe("null");
    expect(await marker(page)).toBe("first");
    expect(await scrolled(page)).toBe(y);
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await page.locator('input[name="_key"]').inputValue()).toBe(key);
    expect(await announced(page)).toBe(before);
    expect(await page.evaluate(() => (window as { __said?: string[] }).__said)).toEqual([]);

    // The restored form still signs, with JavaScript, from the same document.
    await page.getByRole("button", { name: "Sign the guestbook" }).click();
    await expect
      .poll(() => page.getByTestId("form-status").textContent())
      .toBe("Thank you for signing the guestbook.");
    await expect.poll(() => page.getByTestId("entry").filter({ hasText: name }).count()).toBe(1);
    expect(await marker(page)).toBe("first");
    expect(unexpected(problems, 404)).toEqual([]); // the other site's favicon
    await context.close();
  });

  it("without the cache, reloads the page where it was, and earlier client entries where they were", async () => {
    const { page, context, problems } = await openPage(uncached(), TEST_APP);
    await page.setViewportSize({ width: 360, height: 240 });
    await openHome(page);
    await page.getByRole("link", { name: "Twins" }).click();
    await expect.poll(() => heading(page)).toBe("Twin one");
    await transitionDone(page);
    const toTwo = page.getByRole("link", { name: "Go to twin two" });
    await toTwo.scrollIntoViewIfNeeded();
    const oneScroll = await scrolled(page);
    expect(oneScroll).toBeGreaterThan(50);
    await toTwo.click();
    await expect.poll(() => heading(page)).toBe("Twin two");
    await page.evaluate(() => scrollTo(0, 40));

    await leaveForAnotherSite(page, inject("fixtureURL"));
    await page.goBack();
    expect(page.url()).toBe(`${inject("fixtureURL")}/twins/two?from=one`);
    expect(await marker(page)).toBeUndefined(); // a new document
    await expect.poll(() => scrolled(page)).toBe(40);

    await page.goBack();
    await expect.poll(() => heading(page)).toBe("Twin one");
    await expect.poll(() => scrolled(page)).toBe(oneScroll);
    expect(unexpected(problems, 404)).toEqual([]); // the other site's favicon
    await context.close();
  });
});
