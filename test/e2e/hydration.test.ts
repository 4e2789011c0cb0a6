import { describe, expect, it } from "vitest";
import { useBrowser, openPage } from "./support";
import { untilHomeHydrated } from "./navigation-helpers";

const browser = useBrowser();

describe("home page in Chromium", () => {
  it("hydrates: the counter responds to clicks, with no console errors or hydration warnings", async () => {
    const { page, problems, context } = await openPage(browser());
    await page.goto("/");
    const counter = page.getByTestId("counter");
    await expect.poll(() => counter.textContent()).toBe("Clicked 0 times");
    await untilHomeHydrated(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
