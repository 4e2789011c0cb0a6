// Schema-checked forms in a browser, on the tests' own app: /account (an async schema, a password)
// and /schema-throws (a schema that throws), with JavaScript and without.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, TEST_APP, useBrowser } from "./support";

const browser = useBrowser();
const PASSWORD = "correct-horse-battery";

/** Opens `path` and waits until React has hydrated its form (it then handles submit). */
async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
}

/** The error text shown for the field labelled `label` (what its aria-describedby names). */
async function errorOf(page: Page, label: string) {
  const describedBy = await page.getByLabel(label).getAttribute("aria-describedby");
  return describedBy ? page.locator(`#${describedBy}`).textContent() : null;
}

/** Sends /schema-throws' form: the answer is a 500, and the page shows a digest. */
async function sendToThrowingSchema(page: Page) {
  await page.getByLabel("Anything").fill("x");
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Send" }).click(),
  ]);
  expect(response.status()).toBe(500);
  await expect.poll(() => page.getByTestId("digest").textContent()).toMatch(/^[0-9a-z]{8,16}$/);
}

describe("a schema-checked form without JavaScript", () => {
  it("shows each issue next to its field with status 422, keeps the nickname and never the password", async () => {
    const { page, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/account");
    await page.getByLabel("Nickname").fill("taken");
    await page.getByLabel("Password").fill(PASSWORD);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Register" }).click(),
    ]);
    expect(response.status()).toBe(422);
    await page.waitForLoadState("load");
    expect(await errorOf(page, "Nickname")).toBe("That nickname is taken.");
    expect(await page.getByLabel("Nickname").inputValue()).toBe("taken");
    expect(await page.getByLabel("Password").inputValue()).toBe("");
    expect(await page.content()).not.toContain(PASSWORD);
    await context.close();
  });

  it("shows the fallback page with a digest when the schema throws", async () => {
    const { page, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/schema-throws");
    await sendToThrowingSchema(page);
    expect(await page.content()).toContain("Application error: a server-side exception has occurred");
    await context.close();
  });
});

describe("a schema-checked form with JavaScript", () => {
  it("shows the async schema's errors before any round trip, then registers with the typed result", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openHydrated(page, "/account");
    const posts: number[] = [];
    page.on("response", (r) => void (r.request().method() === "POST" && posts.push(r.status())));
    await page.getByLabel("Nickname").fill("taken");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => errorOf(page, "Nickname")).toBe("That nickname is taken.");
    expect(await errorOf(page, "Password")).toBe("Password must be at least 8 characters.");
    expect(posts).toEqual([]);
    await page.getByLabel("Nickname").fill("carol");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => page.getByTestId("registered").textContent()).toBe("Registered carol.");
    expect(posts).toEqual([200]);
    await context.close();
  });

  it("still lets the server judge: a throwing schema ends in the form's message with a digest", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openHydrated(page, "/schema-throws");
    await sendToThrowingSchema(page);
    expect(await page.getByTestId("form-error").textContent()).toContain("Something went wrong");
    await context.close();
  });
});
