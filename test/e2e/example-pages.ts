// Finds the example pages the way a visitor would: the home page's links and the navigation,
// then the links on those pages, so pages added later are covered without editing the tests.
import type { Page } from "playwright-core";
import { inject } from "vitest";

/** Same-origin page paths linked from `html` (no assets, no fragments, no query strings). */
function linkedPaths(html: string, base: string): string[] {
  const paths: string[] = [];
  for (const [, href] of html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)) {
    if (!href || href.startsWith("#")) continue;
    const url = new URL(href.replaceAll("&amp;", "&"), base);
    if (url.origin !== new URL(base).origin || url.pathname.startsWith("/assets/")) continue;
    paths.push(url.pathname);
  }
  return paths;
}

/**
 * "/" plus every page linked from it (its content and the layout's nav), plus every page those
 * link to: two clicks deep, which reaches the /errors sub-pages. Sorted, without duplicates.
 */
export async function examplePages(): Promise<string[]> {
  const base = inject("baseURL");
  const found = new Set<string>(["/"]);
  let frontier = ["/"];
  for (let depth = 0; depth < 2; depth++) {
    const next: string[] = [];
    for (const path of frontier) {
      const html = await (await fetch(new URL(path, base))).text();
      for (const linked of linkedPaths(html, base)) {
        if (!found.has(linked)) {
          found.add(linked);
          next.push(linked);
        }
      }
    }
    frontier = next;
  }
  return [...found].sort();
}

/** Waits until no Suspense boundary is pending (React marks a pending one with a `$?` comment). */
export async function streamedSectionsIn(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
      while (walker.nextNode()) if ((walker.currentNode as Comment).data === "$?") return false;
      return true;
    },
    null,
    { timeout: 10_000 },
  );
}
