// useFetcher() in the test app's /fetcher: an action posted and the page revalidated without a
// navigation, a 422's field errors as data, another page's data loaded, and the same form without
// JavaScript.
import { describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import { useBrowser, openPage, TEST_APP } from "./support";

const browser = useBrowser();

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** Opens /fetcher once React has hydrated it, and marks the document (a reload would lose the mark). */
async function openFetcherPage(page: Page) {
  await page.goto("/fetcher");
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same document"));
}

/** The page's own address (any query), not its chunks under /assets/, which a reload fetches anew. */
const fetcherPage = (url: URL) => url.pathname === "/fetcher";

const marker = (page: Page) => page.evaluate(() => (window as unknown as { marker?: string }).marker);
const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();

/** Holds POSTs until `release()`. */
async function holdPosts(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(fetcherPage, async (route) => {
    if (route.request().method() === "POST") await released;
    await route.continue();
  });
  return release;
}

describe("useFetcher", () => {
  it("posts a fetcher.Form as verge's action, pending meanwhile, and shows the revalidated page in place", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    const render = await text(page, "render");
    const requests: Request[] = [];
    page.on("request", (request) => requests.push(request));
    const release = await holdPosts(page);
    const note = unique("note");
    await page.getByLabel("Note").fill(note);
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => text(page, "fetcher-state")).toBe("submitting");
    // React's useFormStatus() inside the fetcher's form.
    expect(await page.locator("form button[type=submit]").textContent()).toBe("Saving…");
    release();
    await expect.poll(() => text(page, "fetcher-state")).toBe("idle");
    expect(JSON.parse((await text(page, "fetcher-data"))!)).toEqual({ saved: note });
    expect(await page.getByTestId("notes").getByText(note).count()).toBe(1);
    expect(await text(page, "render")).not.toBe(render);
    expect(await page.locator("form button[type=submit]").textContent()).toBe("Save");
    expect(await page.getByLabel("Note").inputValue()).toBe("");
    expect(new URL(page.url()).pathname).toBe("/fetcher");
    expect(await marker(page)).toBe("same document");
    // One request: the action, whose answer carries the page; no page-data GET.
    const sent = requests.filter((r) => !r.url().includes("/assets/") && !r.url().endsWith(".js"));
    expect(sent.map((r) => r.method())).toEqual(["POST"]);
    const headers = await sent[0]!.allHeaders();
    expect(headers["x-action"]).toBe("note");
    expect(headers["x-build"]).toBeTruthy();
    await context.close();
  });

  it("gives a 422's field errors as data and keeps what was typed", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    const render = await text(page, "render");
    await page.getByLabel("Note").fill("refuse this");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => JSON.parse((await text(page, "fetcher-data"))!))
      .toEqual({
        ok: false,
        fieldErrors: { text: "Not that note." },
      });
    expect(await text(page, "fetcher-state")).toBe("idle");
    expect(await page.getByLabel("Note").inputValue()).toBe("refuse this");
    expect(await text(page, "render")).toBe(render);
    await context.close();
  });

  it("submits to another address without navigating, then revalidates the page on screen", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    const render = await text(page, "render");
    const requests: string[] = [];
    page.on("request", (r) =>
      requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`),
    );
    await page.getByRole("button", { name: "Submit elsewhere" }).click();
    await expect.poll(() => text(page, "render")).not.toBe(render);
    expect(await text(page, "fetcher-state")).toBe("idle");
    expect(JSON.parse((await text(page, "fetcher-data"))!)).toEqual({ saved: "sent by submit" });
    expect(await page.getByTestId("notes").getByText("sent by submit").count()).toBeGreaterThan(0);
    expect(page.url()).toBe(new URL("/fetcher", TEST_APP.baseURL).href);
    expect(requests.filter((r) => !r.includes("/assets/"))).toEqual([
      "POST /fetcher?via=submit",
      "GET /fetcher?_data=1",
    ]);
    expect(await marker(page)).toBe("same document");
    await context.close();
  });

  it("follows an action's redirect as a navigation", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    await page.getByLabel("Note").fill("redirect me");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/echo");
    await expect.poll(() => page.getByTestId("echo-output").textContent()).toBe("redirect me");
    expect(await marker(page)).toBe("same document");
    await context.close();
  });

  it("loads the page afresh when the server is another build (409)", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    await page.route(fetcherPage, (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 409,
            contentType: "application/json",
            body: '{"error":{"message":"another build"},"reload":true}',
          })
        : route.continue(),
    );
    await page.getByLabel("Note").fill(unique("skew"));
    // The new document's commit, awaited with a deadline: polling the marker instead once hung a
    // CI run for the whole test timeout, an evaluate waiting on a context that was being replaced.
    const loaded = page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() });
    await page.getByRole("button", { name: "Save" }).click();
    await loaded;
    expect(await marker(page)).toBeUndefined();
    expect(new URL(page.url()).pathname).toBe("/fetcher");
    await context.close();
  });

  it("drops prefetched pages after its action", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    const gets: string[] = [];
    page.on("request", (r) => void (r.method() === "GET" && r.url().includes("_data") && gets.push(r.url())));
    await page.getByRole("link", { name: "Echo after" }).hover();
    await expect.poll(() => gets.length).toBe(1);
    await page.getByLabel("Note").fill(unique("before-click"));
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => text(page, "fetcher-state")).toBe("idle");
    await page.getByRole("link", { name: "Echo after" }).click();
    await expect.poll(() => page.getByTestId("echo-output").count()).toBe(1);
    expect(gets.filter((url) => url.includes("/echo"))).toHaveLength(2);
    await context.close();
  });

  it("loads another page's data without navigating", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openFetcherPage(page);
    await page.getByRole("button", { name: "Load the echo" }).click();
    await expect.poll(() => text(page, "echo-data")).toBe("hello");
    expect(await text(page, "echo-state")).toBe("idle");
    expect(new URL(page.url()).pathname).toBe("/fetcher");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Fetcher");
    expect(await marker(page)).toBe("same document");
    await context.close();
  });

  it("is a plain form without JavaScript: the post saves and the page comes back", async () => {
    const { page, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/fetcher");
    const note = unique("plain");
    await page.getByLabel("Note").fill(note);
    await Promise.all([page.waitForURL("**/fetcher"), page.getByRole("button", { name: "Save" }).click()]);
    expect(await page.getByTestId("notes").getByText(note).count()).toBe(1);
    await context.close();
  });
});
