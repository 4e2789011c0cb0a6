// /rename in the tests' app, in Chromium: its form takes its schema from the action itself
// (`rename.schema`), checks the fields with it before any request, and posts to the action, which
// runs on the worker; no script the page loads holds the action's run function.
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPage, TEST_APP, useBrowser } from "../e2e/support";

const browser = useBrowser();

/** The error text shown for the field labelled `label` (what its aria-describedby names). */
async function errorOf(page: Page, label: string) {
  const describedBy = await page.getByLabel(label).getAttribute("aria-describedby");
  return describedBy ? page.locator(`#${describedBy}`).textContent() : null;
}

it("checks the fields with the action's schema, posts, and shows the worker's result; no script holds its run", async () => {
  const { page, context } = await openPage(browser(), TEST_APP);
  const scripts: Promise<string>[] = [];
  page.on("response", (r) => void (new URL(r.url()).pathname.endsWith(".js") && scripts.push(r.text())));
  const posts: number[] = [];
  page.on("response", (r) => void (r.request().method() === "POST" && posts.push(r.status())));
  await page.goto("/rename");
  await page.waitForFunction(() => {
    const form = document.querySelector("form[method=post]");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  });
  await page.getByRole("button", { name: "Rename" }).click();
  await expect.poll(() => errorOf(page, "Name")).toBe("Name is required.");
  expect(posts).toEqual([]);
  await page.getByLabel("Name").fill("a new name");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect.poll(() => page.getByTestId("renamed").textContent()).toBe("Renamed to a new name.");
  expect(posts).toEqual([200]);
  const loaded = (await Promise.all(scripts)).join("\n");
  // The scan reads the page's real chunks: the schema's message is in them, the run's statement not.
  expect(loaded).toContain("Name is required.");
  expect(loaded).not.toContain("fixture_rename_worker_only");
  await context.close();
});
