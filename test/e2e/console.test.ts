import { beforeAll, describe, expect, it } from "vitest";
import { unexpectedProblems } from "verge/test/browser";
import { useBrowser, openPage } from "./support";
import { examplePages, streamedSectionsIn } from "./example-pages";

const browser = useBrowser();
let pages: string[];
beforeAll(async () => {
  pages = await examplePages();
});

describe("the browser console", () => {
  it("stays free of errors and warnings on every example page, through hydration and streaming", async () => {
    const found: Record<string, string[]> = {};
    // Side by side, each page in a browser context of its own: most of each is waiting on the page.
    await Promise.all(
      pages.map(async (path) => {
        const { page, problems, context } = await openPage(browser());
        const response = await page.goto(path, { waitUntil: "networkidle" });
        await streamedSectionsIn(page);
        const status = response?.status() ?? 0;
        // Chromium reports a document's own error status (the 500 examples) as a console error;
        // that is the page working as designed, not a problem in it.
        const real = status >= 400 ? unexpectedProblems(problems, status) : problems;
        if (real.length > 0) found[path] = real;
        await context.close();
      }),
    );
    expect(found).toEqual({});
  });
});
