import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { useBrowser, openPage, pageFetches, trackFetches } from "./support";

const browser = useBrowser();

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
/** Chromium logs every 4xx/5xx fetch as a console error; those are expected here, nothing else is. */

/** Opens the guestbook and waits until React has hydrated the form (it then handles submit). */
async function openGuestbook(page: Page) {
  await page.goto("/guestbook");
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same document"));
}

const marker = (page: Page) => page.evaluate(() => (window as unknown as { marker?: string }).marker);

/** Holds action POSTs until `release()` is called, so the pending state can be seen. */
async function holdActions(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/guestbook*", async (route) => {
    if (route.request().method() === "POST") await released;
    await route.continue();
  });
  return release;
}

describe("guestbook with JavaScript", () => {
  it("signs without a reload: one POST, no page-data GET, pending state shown, list updated", async () => {
    const { page, context, problems } = await openPage(browser());
    await openGuestbook(page);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    const release = await holdActions(page);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${r.url()} ${r.headers()["x-page-data"] ?? ""}`));
    const name = unique("js");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("Signed with <b>JavaScript</b>");
    const button = page.locator("form button[type=submit]");
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Signing…");
    expect(await button.isDisabled()).toBe(true);
    release();
    const entry = page.getByTestId("entry").filter({ hasText: name });
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.locator(".entry-message").textContent()).toBe("Signed with <b>JavaScript</b>");
    expect(await marker(page)).toBe("same document");
    expect(requests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith("GET") && (r.includes("_data") || r.endsWith(" 1")))).toEqual(
      [],
    );
    expect(await button.textContent()).toBe("Sign the guestbook");
    expect(await button.isDisabled()).toBe(false);
    expect(await page.getByLabel("Name").inputValue()).toBe("");
    expect(await page.getByTestId("form-status").textContent()).toBe("Thank you for signing the guestbook.");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("makes one entry from a double click", async () => {
    const { page, context } = await openPage(browser());
    await trackFetches(page);
    await openGuestbook(page);
    const release = await holdActions(page);
    const name = unique("double");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("clicked twice");
    await page.locator("form button[type=submit]").dblclick();
    release();
    await expect.poll(() => page.getByTestId("entry").filter({ hasText: name }).count()).toBe(1);
    // Every post the page made has been answered: a second submission, had there been one, too.
    const posts = async () => (await pageFetches(page)).filter((call) => call.method === "POST");
    await expect.poll(async () => (await posts()).every((call) => call.settled)).toBe(true);
    expect(await posts()).toHaveLength(1);
    await page.reload();
    expect(await page.getByTestId("entry").filter({ hasText: name }).count()).toBe(1);
    await context.close();
  });

  it("shows field errors accessibly before any round trip: aria-invalid, described by the error, focus on the first invalid field", async () => {
    const { page, context, problems } = await openPage(browser());
    await openGuestbook(page);
    let posts = 0;
    page.on("request", (r) => void (r.method() === "POST" && posts++));
    const message = unique("typed");
    await page.getByLabel("Name").fill("  ");
    await page.getByLabel("Message").fill(message);
    await page.locator("form button[type=submit]").click();
    const nameInput = page.getByLabel("Name");
    await expect.poll(() => nameInput.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await nameInput.getAttribute("aria-describedby");
    expect(await page.locator(`#${describedBy}`).textContent()).toBe("Name is required.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    expect(await page.getByLabel("Message").inputValue()).toBe(message);
    expect(await page.getByLabel("Message").getAttribute("aria-invalid")).toBeNull();
    // The guestbook's schema ran in the browser: nothing was sent.
    expect(posts).toBe(0);
    expect(await marker(page)).toBe("same document");
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("says something went wrong, with the digest, and keeps what was typed when the action fails", async () => {
    const { page, context } = await openPage(browser());
    await openGuestbook(page);
    await page.route("**/guestbook*", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: '{"ok":false,"error":{"digest":"abc123def4"}}',
          })
        : route.continue(),
    );
    const name = unique("fails");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("this will not be saved");
    await page.locator("form button[type=submit]").click();
    const alert = page.getByTestId("form-error");
    await expect.poll(() => alert.textContent()).toContain("Something went wrong");
    expect(await alert.getByTestId("digest").textContent()).toBe("abc123def4");
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await page.getByLabel("Message").inputValue()).toBe("this will not be saved");
    expect(await page.locator("form button[type=submit]").isDisabled()).toBe(false);
    await context.close();
  });
});
