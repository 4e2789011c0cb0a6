// Without JavaScript, Back brings an old form (and its key) back: an edited message sent from it is stored.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { openPage, useBrowser } from "../e2e/support";

const browser = useBrowser();

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** Enough entries for a second page, each signed as a different visitor. */
beforeAll(async () => {
  const base = inject("baseURL");
  for (let i = 0; i < 21; i++) {
    const response = await fetch(`${base}/guestbook`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: base,
        "CF-Connecting-IP": `10.77.0.${i + 1}`,
      },
      body: new URLSearchParams({ _action: "sign", name: unique("filler"), message: "filler" }),
    });
    expect(response.status).toBe(303);
  }
});

describe("the guestbook form after Back, without JavaScript", () => {
  it("stores the edited message sent from the restored form, and shows both entries", async () => {
    const { page, context } = await openPage(browser(), { javaScriptEnabled: false });
    // Signing from page 2 lands on page 1; Back then shows page 2 as the browser kept it.
    await page.goto("/guestbook?page=2");
    const key = await page.locator('input[name="_key"]').inputValue();
    const name = unique("back");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("my first message");
    await Promise.all([
      page.waitForURL("**/guestbook"),
      page.getByRole("button", { name: "Sign the guestbook" }).click(),
    ]);
    await page.goBack();
    expect(page.url()).toMatch(/\/guestbook\?page=2$/);
    expect(await page.locator('input[name="_key"]').inputValue()).toBe(key);
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("an edited message");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Sign the guestbook" }).click(),
    ]);
    expect(response.status()).toBe(303);
    await page.waitForURL("**/guestbook");
    await page.waitForLoadState("load");
    const messages = page.getByTestId("entry").filter({ hasText: name }).locator(".entry-message");
    expect(await messages.allTextContents()).toEqual(["an edited message", "my first message"]);
    await context.close();
  });
});
