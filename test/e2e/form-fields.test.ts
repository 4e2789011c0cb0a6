// Fields beyond text in a browser with JavaScript, on the tests' own app (/choices): a refused
// submission (422) leaves the select, the radio group and the boxes as the visitor set them and
// puts focus on the first invalid field; a valid one is taken with each value. Without
// JavaScript, the refilled HTML is test/worker/form-fields.test.ts's.
import AxeBuilder from "@axe-core/playwright";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, TEST_APP, useBrowser } from "./support";

const browser = useBrowser();

/** Opens /choices and waits until React has hydrated its form (it then handles submit). */
async function openHydrated(page: Page) {
  await page.goto("/choices");
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
}

/** Sends the form and waits for the action's answer. */
async function order(page: Page) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Order" }).click(),
  ]);
  return response.status();
}

describe("fields beyond text with JavaScript", () => {
  it("keep the option, the radio and the boxes through a 422, then send them all", async () => {
    const { page, context, problems } = await openPage(browser(), TEST_APP);
    await openHydrated(page);
    await page.getByLabel("Tone").selectOption("warm");
    await page.getByRole("radio", { name: "l" }).check();
    await page.getByLabel("Wrap it as a gift").check();
    await page.getByLabel("Send me news").uncheck();
    expect(await order(page)).toBe(422);
    await expect
      .poll(() => page.getByRole("textbox", { name: "Name" }).getAttribute("aria-invalid"))
      .toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    expect(await page.getByLabel("Tone").inputValue()).toBe("warm");
    expect(await page.getByRole("radio", { name: "l" }).isChecked()).toBe(true);
    expect(await page.getByLabel("Wrap it as a gift").isChecked()).toBe(true);
    expect(await page.getByLabel("Send me news").isChecked()).toBe(false);

    await page.getByRole("textbox", { name: "Name" }).fill("Ann");
    expect(await order(page)).toBe(200);
    await expect
      .poll(() => page.getByTestId("ordered").textContent())
      .toBe("Ann, warm, l, yes, no news, choices-page");
    // No React warning (keys, hydration, controlled inputs); the 422 itself is logged by Chromium.
    expect(problems.filter((p) => !p.includes("status of 422"))).toEqual([]);
    await context.close();
  });

  it("mark a radio group left unchosen as one invalid group, with focus on it", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await openHydrated(page);
    await page.getByRole("textbox", { name: "Name" }).fill("Bo");
    expect(await order(page)).toBe(422);
    const group = page.getByRole("radiogroup", { name: "Size" });
    await expect.poll(() => group.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await group.getAttribute("aria-describedby");
    expect(await page.locator(`#${describedBy}`).textContent()).toBe("Pick a size.");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("role")))
      .toBe("radiogroup");
    expect(await page.getByLabel("Tone").inputValue()).toBe("dry");
    // The invalid group, its legend and error, and the other kinds pass axe's checks as shown.
    const { violations } = await new AxeBuilder({ page }).include("form").analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
      [],
    );
    await context.close();
  });
});
