// Nested layouts in Chromium: a client navigation between two pages of one layout keeps the
// layout mounted (its React state) and does not load its data again; a middleware's redirect is
// followed client-side; a failure below a layout shows its error view, and the announcer speaks.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser, openPage, TEST_APP } from "./support";
import {
  announced,
  heading,
  location,
  marker,
  transitionDone,
  openLayoutsHydrated,
} from "./navigation-helpers";

const browser = useBrowser();

/** Every page-data answer's JSON, in order. */
function pageDataAnswers(page: Page): Record<string, any>[] {
  const answers: Record<string, any>[] = [];
  page.on("response", async (response) => {
    if (!response.request().headers()["x-page-data"]) return;
    answers.push({
      url: response.url(),
      status: response.status(),
      body: await response.json().catch(() => null),
    });
  });
  return answers;
}

describe("nested layouts", () => {
  it("keeps a layout mounted across a sibling navigation, its state kept and its data not loaded again", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const answers = pageDataAnswers(page);
    await openLayoutsHydrated(page, "/nest/first/a");
    const outerCount = await page.getByTestId("outer-count").textContent();
    await page.getByTestId("inner-count").click();
    await expect.poll(() => page.getByTestId("inner-count").textContent()).toBe("inner count 1");
    const loads = await page.getByTestId("outer-loads").textContent();

    await page.getByRole("link", { name: "Page b" }).click();
    await expect.poll(() => heading(page)).toBe("Nest b in first");
    await expect.poll(() => announced(page)).toBe("Nest b · Nest");
    expect(location(page)).toBe("/nest/first/b");
    expect(await marker(page)).toBe("first");
    // The layouts stayed mounted: their counters kept their counts, their data was not reloaded.
    expect(await page.getByTestId("outer-count").textContent()).toBe(outerCount);
    expect(await page.getByTestId("inner-count").textContent()).toBe("inner count 1");
    expect(await page.getByTestId("outer-loads").textContent()).toBe(loads);
    // (Hovering and focusing links prefetches others: each answer is looked up by its page.)
    const answerOf = (path: string) => answers.find((answer) => new URL(answer.url).pathname === path);
    await expect.poll(() => answerOf("/nest/first/b")).toBeDefined();
    expect(answerOf("/nest/first/b")!.body.layouts).toEqual({});
    expect(answerOf("/nest/first/b")!.body.data).toMatchObject({ id: "page", via: "nestGuard" });

    // Another section: the layouts that read it load their data again; the outer one, which does
    // not read it, keeps its own.
    await transitionDone(page);
    await page.getByRole("link", { name: "Other section" }).click();
    await expect.poll(() => heading(page)).toBe("Nest a in other");
    await expect.poll(() => answerOf("/nest/other/a")).toBeDefined();
    expect(Object.keys(answerOf("/nest/other/a")!.body.layouts)).toEqual(["middle", "inner"]);
    expect(await page.getByTestId("outer-loads").textContent()).toBe(loads);
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("follows a middleware's redirect client-side, and shows a failure in the layout above it", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openLayoutsHydrated(page, "/nest/first/a");
    await page.evaluate(() => {
      for (const [href, text] of [
        ["/nest/first/b?guard=1", "Guarded"],
        ["/nest/first/b?fail=inner", "Inner fails"],
      ]) {
        const link = Object.assign(document.createElement("a"), { href, textContent: text });
        document.querySelector("footer")!.appendChild(link);
      }
    });
    await page.getByRole("link", { name: "Guarded" }).click();
    await expect.poll(() => location(page)).toBe("/nest");
    await expect.poll(() => heading(page)).toBe("Nest home");
    expect(await marker(page)).toBe("first");

    await transitionDone(page);
    await page.getByRole("link", { name: "Inner fails" }).click();
    await expect.poll(() => location(page)).toBe("/nest/first/b?fail=inner");
    await expect.poll(() => page.getByTestId("middle-error").count()).toBe(1);
    expect(await page.getByTestId("layout-inner").count()).toBe(0);
    expect(await page.getByTestId("layout-middle").count()).toBe(1);
    expect(await page.getByTestId("digest").textContent()).toMatch(/^[0-9a-z]{8,16}$/);
    await expect.poll(() => announced(page)).not.toBe("");
    expect(await marker(page)).toBe("first");
    // The failed page data is Chromium's to log (a 500): nothing else went wrong.
    expect(problems.filter((problem) => !problem.includes("500"))).toEqual([]);
    await context.close();
  });
});
