// After an action the client shows nothing it loaded before it: a page prefetched on hover, or a
// layout's data kept on screen, is asked for again, whatever the action answered.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser, openPage, pageFetches, trackFetches, TEST_APP } from "./support";
import { heading, unexpected, openFormsHydrated } from "./navigation-helpers";

const browser = useBrowser();

/** How many times the outer layout's loader had run when its data was shown. */
const outerLoads = async (page: Page) =>
  Number((await page.getByTestId("outer-loads").textContent())!.replace(/\D+/g, ""));

/** Hovers `name` and waits until the page it links to has been prefetched. */
async function prefetched(page: Page, name: string, path: string) {
  await page.getByRole("link", { name }).hover();
  await expect
    .poll(async () =>
      (await pageFetches(page)).some((call) => call.pageData && call.path.startsWith(path) && call.settled),
    )
    .toBe(true);
}

/** The page-data GETs of `path` made after the page's last POST. */
async function fetchedAfterPost(page: Page, path: string) {
  const calls = await pageFetches(page);
  const post = calls.findLastIndex((call) => call.method === "POST");
  return calls.slice(post + 1).filter((call) => call.pageData && call.path.startsWith(path));
}

describe("after an action", () => {
  it("loads a redirect's target anew, with its layouts, though it was prefetched before", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await trackFetches(page);
    await openFormsHydrated(page, "/nest/fresh/a");
    const before = await outerLoads(page);
    await prefetched(page, "Page b", "/nest/fresh/b");

    await page.getByRole("button", { name: "Move on to b" }).click();
    await expect.poll(() => heading(page)).toBe("Nest b in fresh");
    expect(await fetchedAfterPost(page, "/nest/fresh/b")).toHaveLength(1);
    expect(await outerLoads(page)).toBeGreaterThan(before);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it("drops a prefetched page and the kept layouts after a refusal too", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await trackFetches(page);
    await openFormsHydrated(page, "/nest/refused/a");
    const before = await outerLoads(page);
    await prefetched(page, "Page b", "/nest/refused/b");

    await page.getByRole("button", { name: "Be refused" }).click();
    await expect.poll(() => page.getByText("Refused on purpose.").count()).toBe(1);
    await page.getByRole("link", { name: "Page b" }).click();
    await expect.poll(() => heading(page)).toBe("Nest b in refused");
    expect(await fetchedAfterPost(page, "/nest/refused/b")).toHaveLength(1);
    expect(await outerLoads(page)).toBeGreaterThan(before);
    expect(unexpected(problems, 422)).toEqual([]);
    await context.close();
  });
});
