// Client-side navigation in Chromium: no document reloads, Back/Forward, scroll, focus, the
// route announcer, intent prefetch, and the full-load fallback on version skew.
import { describe, expect, it } from "vitest";
import { useBrowser, openPage, pageFetches, pageTurn, TEST_APP, trackFetches } from "./support";
import {
  addLink,
  announced,
  focused,
  heading,
  location,
  marker,
  openHome,
  recordPageData,
  scrolled,
  unexpected,
  transitionDone,
} from "./navigation-helpers";

const browser = useBrowser();

describe("client navigation", () => {
  it("changes URL, title and content without reloading, announcing each page and focusing main", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    expect(await announced(page)).toBe("");

    // /twins redirects (loader) to /twins/one: followed client-side.
    await page.getByRole("link", { name: "Twins" }).click();
    await expect.poll(() => heading(page)).toBe("Twin one");
    expect(location(page)).toBe("/twins/one");
    expect(await page.title()).toBe("Twins");
    await expect.poll(() => announced(page)).toBe("Twins");
    expect(await focused(page)).toBe("main");

    // Same title as before: the announcer falls back to the h1.
    await page.getByRole("link", { name: "Go to twin two" }).click();
    await expect.poll(() => heading(page)).toBe("Twin two");
    expect(location(page)).toBe("/twins/two?from=one");
    expect(await page.title()).toBe("Twins");
    expect(await page.getByTestId("twin-from").textContent()).toBe("You came from twin one.");
    await expect.poll(() => announced(page)).toBe("Twin two");
    expect(await focused(page)).toBe("main");

    await page.getByRole("link", { name: "Go to twin one" }).click();
    await expect.poll(() => announced(page)).toBe("Twin one");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Errors" }).click();
    await expect.poll(() => heading(page)).toBe("Errors");
    await expect.poll(() => announced(page)).toBe("Errors");
    expect(await page.title()).toBe("Errors");
    expect(await focused(page)).toBe("main");

    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("restores content and scroll on Back and Forward, and starts new pages at the top", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
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
    expect(await scrolled(page)).toBe(0);

    const toOne = page.getByRole("link", { name: "Go to twin one" });
    await page.evaluate(() => scrollTo(0, 40));
    const twoScroll = await scrolled(page);
    expect(twoScroll).toBe(40);

    await page.goBack();
    await expect.poll(() => heading(page)).toBe("Twin one");
    expect(location(page)).toBe("/twins/one");
    await expect.poll(() => scrolled(page)).toBe(oneScroll);
    await expect.poll(() => announced(page)).toBe("Twin one");

    await page.goForward();
    await expect.poll(() => heading(page)).toBe("Twin two");
    await expect.poll(() => scrolled(page)).toBe(twoScroll);
    await expect(toOne.isVisible()).resolves.toBe(true);

    await page.goBack();
    await page.goBack();
    await expect.poll(() => heading(page)).toBe("verge");
    expect(location(page)).toBe("/");

    // A link to another page's #hash scrolls to that element once the page is shown.
    await addLink(page, "/twins/two#other-twin", "Hash");
    await page.getByRole("link", { name: "Hash" }).click();
    await expect.poll(() => heading(page)).toBe("Twin two");
    expect(await scrolled(page)).toBeGreaterThan(50);
    // Scrolled to the element's top, or as far as the page goes when it sits near the end.
    const expected = await page.locator("#other-twin").evaluate((element) => {
      const max = document.documentElement.scrollHeight - innerHeight;
      return Math.round(Math.min(element.getBoundingClientRect().top + scrollY, max));
    });
    expect(Math.abs((await scrolled(page)) - expected)).toBeLessThanOrEqual(1);
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("prefetches on hover with exactly one page-data request, so the click needs none", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await trackFetches(page);
    await openHome(page);
    await page.getByRole("link", { name: "Twins" }).click();
    await expect.poll(() => heading(page)).toBe("Twin one");
    const requests = recordPageData(page);

    const link = page.getByRole("link", { name: "Go to twin two" });
    await link.hover();
    await expect.poll(() => [...requests]).toEqual(["/twins/two?from=one"]);
    await page.mouse.move(0, 0);
    await link.hover();
    // The second hover's handlers have run by the next turn: a second prefetch would be in this list.
    await pageTurn(page);
    const twoFetches = (await pageFetches(page)).filter(
      (call) => call.pageData && call.path.startsWith("/twins/two"),
    );
    expect(twoFetches).toHaveLength(1);
    await link.click();
    await expect.poll(() => heading(page)).toBe("Twin two");
    expect(requests).toEqual(["/twins/two?from=one"]);
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("leaves modified clicks to the browser: ctrl/meta-click opens a new tab, this page stays", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    const opened = context.waitForEvent("page");
    await page
      .getByRole("link", { name: "Slow" })
      .first()
      .click({ modifiers: ["ControlOrMeta"] });
    const tab = await opened;
    await tab.waitForURL(/\/slow$/);
    expect(location(page)).toBe("/");
    expect(await heading(page)).toBe("verge");
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("does a full page load of the target when the server answers 409 (another build)", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    const statuses: number[] = [];
    page.on("response", (response) => {
      if (response.request().headers()["x-page-data"]) statuses.push(response.status());
    });
    await page.route(
      (url) => url.searchParams.has("_data"),
      (route) => route.continue({ headers: { ...route.request().headers(), "x-build": "an-older-build" } }),
    );
    await page.getByRole("link", { name: "Twins" }).click();
    await page.waitForURL(/\/twins\/one$/);
    await expect.poll(() => heading(page)).toBe("Twin one");
    expect(await marker(page)).toBeUndefined();
    expect(statuses).toEqual([409]);
    expect(unexpected(problems, 409)).toEqual([]);
    await context.close();
  });
});
