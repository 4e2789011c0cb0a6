// notFound() and a page's own ErrorView in Chromium: a client navigation to a page whose loader
// says notFound() shows the not-found view inside the layouts, and a page's own ErrorView shows
// its loader's failure there, both without a full page load (the layouts stay mounted).
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser, openPage, TEST_APP } from "./support";
import {
  addLink,
  outerCounterHydrated,
  announced,
  heading,
  location,
  marker,
  openLayoutsHydrated,
  transitionDone,
  unexpected,
} from "./navigation-helpers";

const browser = useBrowser();

describe("notFound() from a loader, in the browser", () => {
  it("shows the not-found view inside the page's layouts after a client navigation", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const count = await openLayoutsHydrated(page, "/nest/first/a");
    await addLink(page, "/nest/first/b?missing=page", "Missing page");
    await page.getByRole("link", { name: "Missing page" }).click();
    await expect.poll(() => location(page)).toBe("/nest/first/b?missing=page");
    await expect.poll(() => heading(page)).toBe("Page not found");
    await expect.poll(() => announced(page)).toBe("Page not found · Nest");
    expect(await page.getByText("There is no page at this address.").count()).toBe(1);
    // Inside the layouts, which stayed mounted (their state kept): no full page load.
    expect(await page.getByTestId("layout-inner").getByRole("heading").textContent()).toBe("Page not found");
    expect(await page.getByTestId("outer-count").textContent()).toBe(count);
    expect(await marker(page)).toBe("first");

    // And back to a page that exists, in the same document.
    await transitionDone(page);
    await page.getByRole("link", { name: "Missing page" }).evaluate((link) => link.remove());
    await addLink(page, "/nest/first/a", "Page a again");
    await page.getByRole("link", { name: "Page a again" }).click();
    await expect.poll(() => heading(page)).toBe("Nest a in first");
    expect(await marker(page)).toBe("first");
    expect(unexpected(problems, 404)).toEqual([]);
    await context.close();
  });

  it("hydrates the not-found view a document load of such a page shows", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const response = await page.goto("/nest/first/a?missing=page");
    expect(response?.status()).toBe(404);
    // Hydrated: the layout's counter answers clicks.
    await outerCounterHydrated(page);
    expect(await heading(page)).toBe("Page not found");
    expect(unexpected(problems, 404)).toEqual([]);
    await context.close();
  });
});

describe("notFound() from an action, in the browser", () => {
  it("shows the not-found view inside the layouts after a form sent with JavaScript", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const count = await openLayoutsHydrated(page, "/nest/first/a");
    await page.getByLabel("Id", { exact: true }).fill("nope");
    await page.getByRole("button", { name: "Find" }).click();
    await expect.poll(() => heading(page)).toBe("Page not found");
    expect(await page.getByTestId("layout-inner").getByRole("heading").textContent()).toBe("Page not found");
    expect(await page.getByTestId("outer-count").textContent()).toBe(count);
    expect(location(page)).toBe("/nest/first/a");
    expect(await marker(page)).toBe("first");
    expect(unexpected(problems, 404)).toEqual([]);
    await context.close();
  });

  it("shows it with 404 after a form sent without JavaScript", async () => {
    const { page, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/nest/first/a");
    await page.getByLabel("Id", { exact: true }).fill("nope");
    const [response] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Find" }).click(),
    ]);
    expect(response.status()).toBe(404);
    await expect.poll(() => heading(page)).toBe("Page not found");
    expect(await page.getByTestId("layout-inner").count()).toBe(1);
    await context.close();
  });
});

describe("a page's own ErrorView, in the browser", () => {
  it("shows its loader's failure inside the layouts after a client navigation", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openLayoutsHydrated(page, "/nest/first/a");
    await addLink(page, "/nest/first/own?fail=page", "Own error");
    await page.getByRole("link", { name: "Own error" }).click();
    await expect.poll(() => location(page)).toBe("/nest/first/own?fail=page");
    await expect.poll(() => page.getByTestId("own-error").count()).toBe(1);
    expect(await page.getByTestId("layout-inner").getByTestId("own-error").count()).toBe(1);
    expect(await page.getByTestId("inner-error").count()).toBe(0);
    expect(await page.getByTestId("digest").textContent()).toMatch(/^[0-9a-z]{8,16}$/);
    expect(await marker(page)).toBe("first");
    expect(unexpected(problems, 500)).toEqual([]);
    await context.close();
  });

  it("shows its render's failure in the browser inside the layouts, not the app's fallback", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openLayoutsHydrated(page, "/nest/first/a");
    // The page data is fine; the page throws as it renders it, in the browser.
    await addLink(page, "/nest/first/own?throw=render", "Own render");
    await page.getByRole("link", { name: "Own render" }).click();
    await expect.poll(() => page.getByTestId("own-error").count()).toBe(1);
    expect(await page.getByTestId("layout-inner").getByTestId("own-error").count()).toBe(1);
    expect(await page.getByTestId("app-error").count()).toBe(0);
    expect(await marker(page)).toBe("first");
    await context.close();
  });
});
