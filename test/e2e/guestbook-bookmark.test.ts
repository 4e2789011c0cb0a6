// Read-your-writes in the browser: after signing, the visitor's next pages carry the D1 bookmark
// (the header from the client with JavaScript, the cookie without) and show the entry.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser, openPage } from "./support";

const browser = useBrowser();

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
/** D1's bookmark as verge sends it, sealed: ".", its issue time (base 36), ".", an HMAC-SHA256 in base64url. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}\.[0-9a-z]{1,10}\.[\w-]{43}$/;

async function sign(page: Page, name: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Message").fill("read my own write");
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Sign the guestbook" }).click(),
  ]);
  return answer;
}

/** A link of the site's main navigation (the home page links the guestbook twice). */
const nav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
const entry = (page: Page, name: string) => page.getByTestId("entry").filter({ hasText: name });

describe("the guestbook after signing", () => {
  it("shows the entry when the visitor navigates away and back with JavaScript, the bookmark sent along", async () => {
    const { page, context } = await openPage(browser());
    await page.goto("/guestbook");
    await page.waitForFunction(() => {
      const form = document.querySelector("form[method=post]");
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
    });
    const name = unique("bm-js");
    const answer = await sign(page, name);
    const bookmark = await answer.headerValue("x-d1-bookmark");
    expect(bookmark).toMatch(BOOKMARK);
    await expect.poll(() => entry(page, name).count()).toBe(1);

    const sent: (string | undefined)[] = [];
    page.on("request", (r) => {
      if (r.headers()["x-page-data"]) sent.push(r.headers()["x-d1-bookmark"]);
    });
    await nav(page, "Home").click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goBack();
    await page.waitForURL("**/guestbook");
    await expect.poll(() => entry(page, name).count()).toBe(1);
    await nav(page, "Slow").click();
    await page.waitForURL("**/slow");
    await nav(page, "Guestbook").click();
    await page.waitForURL("**/guestbook");
    await expect.poll(() => entry(page, name).count()).toBe(1);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const value of sent) expect(value! >= bookmark!).toBe(true);
    await context.close();
  });

  it("shows the entry when the visitor navigates away and back without JavaScript, by the cookie", async () => {
    const { page, context } = await openPage(browser(), { javaScriptEnabled: false });
    await page.goto("/guestbook");
    const name = unique("bm-nojs");
    const answer = await sign(page, name);
    expect(answer.status()).toBe(303);
    await page.waitForURL("**/guestbook");
    await expect.poll(() => entry(page, name).count()).toBe(1);
    const [cookie] = (await context.cookies()).filter((c) => c.name === "d1-bookmark");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie!.value).toMatch(BOOKMARK);

    await nav(page, "Home").click();
    await page.waitForURL((url) => url.pathname === "/");
    const [back] = await Promise.all([page.waitForRequest("**/guestbook"), nav(page, "Guestbook").click()]);
    expect(await back.headerValue("cookie")).toContain(`d1-bookmark=${cookie!.value}`);
    await expect.poll(() => entry(page, name).count()).toBe(1);
    await context.close();
  });

  it("carries no bookmark for a visitor who has not written", async () => {
    const { page, context } = await openPage(browser());
    const [document] = await Promise.all([page.waitForResponse("**/guestbook"), page.goto("/guestbook")]);
    expect(await document.headerValue("set-cookie")).toBeNull();
    expect((await context.cookies()).filter((c) => c.name === "d1-bookmark")).toEqual([]);
    await context.close();
  });
});
