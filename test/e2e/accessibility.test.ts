import { beforeAll, describe, it } from "vitest";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { useBrowser, openPage } from "./support";
import { examplePages, streamedSectionsIn } from "./example-pages";

const browser = useBrowser();
let pages: string[];
beforeAll(async () => {
  pages = await examplePages();
});

/**
 * Loads a page and waits until it is complete: loaded, streamed sections in. Hydration leaves
 * the document as the server sent it (a mismatch fails the hydration tests). Not `networkidle`:
 * its half second of quiet per page was most of this file's time.
 */
async function settle(page: Page, path: string) {
  await page.goto(path);
  await streamedSectionsIn(page);
}

// The two color schemes side by side, each in a browser context of its own: most of each is
// waiting for pages to go quiet, not work.
describe.concurrent("accessibility (axe-core)", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`finds no violations on any example page, ${colorScheme} color scheme`, async ({ expect }) => {
      const { page, context } = await openPage(browser(), { colorScheme });
      const report: Record<string, string[]> = {};
      for (const path of pages) {
        await settle(page, path);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.passes.length, `${path}: axe ran its checks`).toBeGreaterThan(10);
        for (const violation of results.violations) {
          (report[path] ??= []).push(
            `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
          );
        }
      }
      expect(report).toEqual({});
      await context.close();
    });
  }
});
