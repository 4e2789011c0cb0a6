// docs/testing.md's browser example, quoted there: a new page (the tests' app's /about) in Chromium.
import { describe, expect, inject, it } from "vitest";
import { openPage, useBrowser, usePreview } from "verge/test/browser";

const browser = useBrowser();
// A product's own file writes usePreview(); here the run already serves the tests' app.
const preview = usePreview({ url: inject("fixtureURL"), logFile: "dist/e2e-fixture.log" });

describe("/about in Chromium", () => {
  it("shows the loader's data to a visitor", async () => {
    const { page, problems } = await openPage(browser(), { baseURL: preview().url });
    await page.goto("/about?from=a-link");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("About");
    expect(await page.getByText("42 visitors, this one from a-link").isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("takes a wave without JavaScript, and the server logs the post", async () => {
    const { page } = await openPage(browser(), { baseURL: preview().url, javaScriptEnabled: false });
    await page.goto("/about");
    await page.getByRole("button", { name: "Wave" }).click();
    await page.waitForURL((url) => url.pathname === "/about");
    const posts = async () =>
      (await preview().log()).filter((line) => line.method === "POST" && line.path === "/about");
    await expect.poll(async () => (await posts()).map((line) => line.status)).toContain(303);
  });
});
