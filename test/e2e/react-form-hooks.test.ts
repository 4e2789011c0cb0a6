// React 19's own form hooks over verge's transport, in the guestbook: useFormStatus() pending while
// the post is on its way, useOptimistic() showing the entry at once and dropping it on a refusal.
import { describe, expect, it } from "vitest";
import type { Page, Route } from "playwright-core";
import { useBrowser, openPage } from "./support";

const browser = useBrowser();

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

async function openGuestbook(page: Page) {
  await page.goto("/guestbook");
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
}

/** Holds the guestbook's POSTs until `release()`, then answers each with `answer` (default: the server). */
async function holdPosts(page: Page, answer?: (route: Route) => Promise<void>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/guestbook*", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    await released;
    await (answer ? answer(route) : route.continue());
  });
  return release;
}

/** Counts the frames, from now on, where the entry named `name` is on screen neither as sent nor as stored. */
function watchForGap(page: Page, name: string) {
  return page.evaluate((name) => {
    const seen = { frames: 0, gaps: 0, stored: false };
    (window as unknown as { gapWatch: typeof seen }).gapWatch = seen;
    const has = (testId: string) =>
      [...document.querySelectorAll(`[data-testid=${testId}]`)].some((e) => e.textContent?.includes(name));
    const frame = () => {
      seen.frames++;
      seen.stored = has("entry");
      if (!seen.stored && !has("pending-entry")) seen.gaps++;
      if (!seen.stored) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, name);
}

const sign = async (page: Page, name: string, message: string) => {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Message").fill(message);
  await page.locator("form button[type=submit]").click();
};

describe("React's form hooks in the guestbook", () => {
  it("shows the entry at the top and the button pending (useFormStatus) until the answer, then the stored entry, without a gap", async () => {
    const { page, context } = await openPage(browser());
    await openGuestbook(page);
    const release = await holdPosts(page);
    const name = unique("optimistic");
    await sign(page, name, "shown before the answer");
    const pending = page.getByTestId("pending-entry");
    await expect.poll(() => pending.count()).toBe(1);
    expect(await pending.textContent()).toContain(name);
    // At the top of the list, above every stored entry.
    expect(await page.locator("[data-testid=entries] > li").first().getAttribute("data-testid")).toBe(
      "pending-entry",
    );
    const button = page.locator("form button[type=submit]");
    expect(await button.textContent()).toBe("Signing…");
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByTestId("entry").filter({ hasText: name }).count()).toBe(0);
    await watchForGap(page, name);
    release();
    const stored = page.getByTestId("entry").filter({ hasText: name });
    await expect.poll(() => stored.count()).toBe(1);
    expect(await pending.count()).toBe(0);
    expect(await button.textContent()).toBe("Sign the guestbook");
    expect(await button.isDisabled()).toBe(false);
    const watched = await page.evaluate(() => (window as unknown as { gapWatch: { gaps: number } }).gapWatch);
    expect(watched.gaps).toBe(0);
    await context.close();
  });

  it("drops the optimistic entry on a 422 and keeps what was typed, with the field's error", async () => {
    const { page, context } = await openPage(browser());
    await openGuestbook(page);
    const release = await holdPosts(page, (route) =>
      route.fulfill({
        status: 422,
        contentType: "application/json",
        body: JSON.stringify({ ok: false, fieldErrors: { message: "The server says no." } }),
      }),
    );
    const name = unique("refused");
    await sign(page, name, "will be refused");
    const pending = page.getByTestId("pending-entry");
    await expect.poll(() => pending.count()).toBe(1);
    release();
    const message = page.getByLabel("Message");
    await expect.poll(() => message.getAttribute("aria-invalid")).toBe("true");
    expect(await pending.count()).toBe(0);
    expect(await page.getByTestId("entry").filter({ hasText: name }).count()).toBe(0);
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await message.inputValue()).toBe("will be refused");
    expect(await page.locator("form button[type=submit]").isDisabled()).toBe(false);
    await context.close();
  });

  it("drops the optimistic entry when the action fails, and shows the digest", async () => {
    const { page, context } = await openPage(browser());
    await openGuestbook(page);
    const release = await holdPosts(page, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: '{"ok":false,"error":{"digest":"optimist01"}}',
      }),
    );
    const name = unique("fails");
    await sign(page, name, "will fail");
    await expect.poll(() => page.getByTestId("pending-entry").count()).toBe(1);
    release();
    await expect.poll(() => page.getByTestId("digest").textContent()).toBe("optimist01");
    expect(await page.getByTestId("pending-entry").count()).toBe(0);
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    await context.close();
  });
});
