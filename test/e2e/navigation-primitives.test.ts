// Link, navigate, useNavigate, useNavigation, useRevalidator and useSearchParams in Chromium, on
// the test app's /primitives page, and what the server renders of them without JavaScript.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser, openPage, pageFetches, pageTurn, trackFetches, TEST_APP } from "./support";
import { heading, location, marker, unexpected, openFormsHydrated } from "./navigation-helpers";

const browser = useBrowser();

const text = (page: Page, id: string) => page.getByTestId(id).textContent();
const loads = async (page: Page) => Number((await text(page, "loads"))!.replace(/\D+/g, ""));
const historyLength = (page: Page) => page.evaluate(() => history.length);
const navigations = (page: Page) =>
  page.evaluate(() => (window as { __navigations?: string[] }).__navigations ?? []);
/** The page-data requests the page made for `path` (any query). */
const pageDataFor = async (page: Page, path: string) =>
  (await pageFetches(page)).filter(
    (call) => call.pageData && new URL(call.path, "http://x").pathname === path,
  );

/** Holds requests to /primitives of `method` until the returned function is called. */
async function hold(page: Page, method: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/primitives*", async (route) => {
    if (route.request().method() === method) await released;
    await route.continue();
  });
  return release;
}

describe("navigation primitives", () => {
  it("render on the server as a page without JavaScript sees them: idle, the request's query, plain links", async () => {
    const { page, problems, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/primitives?step=4");
    expect(await text(page, "step")).toBe("step 4");
    expect(await text(page, "navigation")).toBe("navigation idle");
    expect(await text(page, "revalidator")).toBe("revalidator idle");
    const never = page.getByRole("link", { name: "Slow, never prefetched" });
    expect(await never.getAttribute("href")).toBe("/slow");
    await page.getByRole("link", { name: "Errors, prefetched when shown" }).click();
    await page.waitForURL((url) => url.pathname === "/errors");
    expect(await heading(page)).toBe("Errors");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("useSearchParams reads the query and its setter navigates: a new entry, or in place", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openFormsHydrated(page, "/primitives?step=1");
    expect(await text(page, "step")).toBe("step 1");
    const before = await loads(page);
    const entries = await historyLength(page);

    await page.getByRole("button", { name: "Next step" }).click();
    await expect.poll(() => text(page, "step")).toBe("step 2");
    expect(location(page)).toBe("/primitives?step=2");
    expect(await loads(page)).toBeGreaterThan(before);
    expect(await historyLength(page)).toBe(entries + 1);
    expect(await navigations(page)).toEqual(["idle", "loading /primitives", "idle"]);

    await page.getByRole("button", { name: "Step 0 in place" }).click();
    await expect.poll(() => text(page, "step")).toBe("step 0");
    expect(location(page)).toBe("/primitives?step=0");
    expect(await historyLength(page)).toBe(entries + 1);

    await page.goBack();
    await expect.poll(() => text(page, "step")).toBe("step 1");
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("useNavigation says submitting with the form's data, then loading, then idle", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openFormsHydrated(page, "/primitives");
    const release = await hold(page, "POST");
    await page.getByLabel("Note").fill("hello");
    await page.getByRole("button", { name: "Send the note" }).click();
    await expect.poll(() => text(page, "navigation")).toBe("navigation submitting");
    expect(await page.locator("main").getAttribute("aria-busy")).toBe("true");
    release();
    await expect.poll(() => text(page, "navigation")).toBe("navigation idle");
    expect(await page.locator("main").getAttribute("aria-busy")).toBeNull();
    expect(await navigations(page)).toEqual([
      "idle",
      "submitting /primitives hello",
      "loading /primitives hello",
      "idle",
    ]);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it("useRevalidator loads the page's data again, and useNavigation stays idle meanwhile", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openFormsHydrated(page, "/primitives?step=3");
    const before = await loads(page);
    const release = await hold(page, "GET");
    await page.getByRole("button", { name: "Revalidate" }).click();
    await expect.poll(() => text(page, "revalidator")).toBe("revalidator loading");
    release();
    await expect.poll(() => loads(page)).toBeGreaterThan(before);
    await expect.poll(() => text(page, "revalidator")).toBe("revalidator idle");
    expect(location(page)).toBe("/primitives?step=3");
    expect(await navigations(page)).toEqual(["idle"]);
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("navigate() and useNavigate() go client-side, and replace keeps the history's length", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openFormsHydrated(page, "/primitives");
    const entries = await historyLength(page);
    await page.getByRole("button", { name: "Navigate to slow" }).click();
    await expect.poll(() => heading(page)).toBe("Slow");
    expect(await historyLength(page)).toBe(entries + 1);
    await page.goBack();
    await expect.poll(() => heading(page)).toBe("Primitives");

    await page.getByRole("button", { name: "Replace with errors" }).click();
    await expect.poll(() => heading(page)).toBe("Errors");
    expect(location(page)).toBe("/errors");
    expect(await historyLength(page)).toBe(entries + 1);
    // The entry it replaced was the one before /slow's, which is still next.
    await page.goForward();
    await expect.poll(() => heading(page)).toBe("Slow");
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Link prefetches when shown, on intent, or never, as told; replace replaces the entry", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await trackFetches(page);
    await openFormsHydrated(page, "/primitives");
    // "render": without a hover.
    await expect.poll(async () => (await pageDataFor(page, "/errors")).length).toBe(1);
    // "none": a hover and a focus load nothing.
    await page.getByRole("link", { name: "Slow, never prefetched" }).hover();
    await page.getByRole("link", { name: "Slow, never prefetched" }).focus();
    await pageTurn(page);
    expect(await pageDataFor(page, "/slow")).toEqual([]);
    // "intent" (the layout's links): on hover.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).hover();
    await expect.poll(async () => (await pageDataFor(page, "/")).length).toBe(1);

    const entries = await historyLength(page);
    await page.getByRole("link", { name: "Account, in place" }).click();
    await expect.poll(() => heading(page)).toBe("Account");
    expect(await historyLength(page)).toBe(entries);
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });
});
