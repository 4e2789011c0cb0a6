// Byte budgets for what visitors download, measured on the production build (npm run build).
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { MODULE_ID_EXPORT, pageFiles } from "../../src/server/manifest";
import { asset, gzipSize, readBuild, root, staticClosure } from "./dist";
import { stableGzip } from "./stable-size";
import { overBudget, partOf, recordIfAsked, recorded, total, type Part } from "./first-load";

/** The budget for every byte of JavaScript the home page loads, gzipped. */
const HOME_JS_BUDGET = 75_000;
/** What verge may add on top of React itself (react + react-dom/client), gzipped. */
const OVER_REACT_BUDGET = 6_000;
/**
 * What Web Vitals load after the page is idle (client/vitals-report.ts and what it imports beyond
 * the first load), gzipped, over Google's web-vitals itself (its five metrics, bundled alone as
 * below). Issue 32 asked for 3 KB in all, which cannot hold: web-vitals 6 is 3.2 KB gzip by
 * itself, and the collector is 4.4 KB in all. What is held is verge's own share (the view
 * bookkeeping, a client view's FCP and CLS, the envelope writer, the chunk's import line and debug
 * ID), about 1 KB. Other chunks' hashes in the chunk (the shell's file name it imports, its debug
 * ID) are measured as stand-ins (stable-size.ts): once they moved it 7 B when product pages were
 * added. What is left is the minifier's names for the shell's exports it imports (`{A,F,P}` or
 * `{F,I,j}`), set by what every chunk imports: over five builds (the example; with a notes section,
 * a layout, two pages and an endpoint; three variants of it) it measured 4,368-4,374 B for 4,370 B.
 * The 6 B between 4,370 B and this budget (web-vitals itself 3,276 B) cover that.
 */
const VITALS_OVER_LIBRARY_BUDGET = 1_100;

/** `contents` (a module that exports what it bundles) minified for production by esbuild, gzipped. */
async function bundledGzip(contents: string): Promise<number> {
  const result = await esbuild.build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    minify: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
  });
  return gzipSize(result.outputFiles[0]!.contents);
}

/** react + react-dom/client alone. */
const reactItselfGzip = () =>
  bundledGzip(`export * as React from "react"; export * as ReactDOM from "react-dom/client";`);

/** Google's web-vitals alone: the five metrics the collector uses. */
const webVitalsItselfGzip = () =>
  bundledGzip(`export { onCLS, onFCP, onINP, onLCP, onTTFB } from "web-vitals";`);

const { manifest } = readBuild();

/** The chunks a first load of the page made by `module` fetches: the entry, the page's chunk, their static imports. */
function firstLoad(module: string) {
  const page = manifest.modules[module];
  if (!page) throw new Error(`${module} has no chunk of its own in the client build`);
  // The entry and the page's chunk start loading at once; the browser then fetches their static imports.
  const loaded = staticClosure([manifest.entry, page.file]);
  const sizes = [...loaded].map((href) => ({ href, gzip: stableGzip(asset(href)), raw: asset(href).length }));
  return { loaded, sizes, total: sizes.reduce((sum, file) => sum + file.gzip, 0) };
}

const HOME = "src/app/pages/home.tsx";
const GUESTBOOK = "src/app/pages/guestbook.tsx";

describe("JavaScript budget of the home page", () => {
  const { loaded, sizes, total } = firstLoad(HOME);

  it("preloads exactly the chunks the home page loads", () => {
    const { preloads } = pageFiles(manifest, [{ [MODULE_ID_EXPORT]: HOME }]);
    expect([...new Set([manifest.entry, ...preloads])].sort()).toEqual([...loaded].sort());
    // And what the manifest lists is what the chunks import: the manifest is read from the build.
    const page = manifest.modules[HOME]!;
    expect([manifest.entry, ...manifest.entryImports, page.file, ...page.imports].sort()).toEqual(
      [...loaded].sort(),
    );
  });

  it(`is at most ${HOME_JS_BUDGET} bytes gzipped, and at most React itself + ${OVER_REACT_BUDGET}`, async () => {
    const react = await reactItselfGzip();
    console.log(
      `home page JS: ${sizes.length} files, ${total} B gzip (${sizes.reduce((s, f) => s + f.raw, 0)} B raw); ` +
        `React itself ${react} B gzip; verge adds ${total - react} B`,
    );
    expect(react).toBeGreaterThan(50_000); // a sanity check that React was really bundled
    expect(total).toBeLessThanOrEqual(HOME_JS_BUDGET);
    expect(total).toBeLessThanOrEqual(react + OVER_REACT_BUDGET);
  });

  it("is React's minified production build", () => {
    const code = [...loaded].map(asset).join("\n");
    expect(code).toContain("Minified React error #"); // production builds only
    expect(code).not.toContain("Invalid hook call"); // a development-only warning
    expect(code.length / code.split("\n").length, "mean line length: minified").toBeGreaterThan(500);
  });
});

// The guestbook's bytes are held by part below (the runtime, and what the page adds): a budget on
// its whole first load went red whenever the product grew elsewhere.
describe("JavaScript of the guestbook", () => {
  it("preloads exactly the chunks its first load fetches", () => {
    const { loaded, sizes, total } = firstLoad(GUESTBOOK);
    const { preloads } = pageFiles(manifest, [{ [MODULE_ID_EXPORT]: GUESTBOOK }]);
    expect([...new Set([manifest.entry, ...preloads])].sort()).toEqual([...loaded].sort());
    console.log(`guestbook JS: ${sizes.length} files, ${total} B gzip`);
  });
});

describe("JavaScript budget of Web Vitals", () => {
  const collector = Object.keys(readBuild().chunks).find((chunk) =>
    readBuild().chunks[chunk]!.includes("client/vitals-report.ts"),
  );

  it("is never part of a first load: the collector is its own chunk, imported once the page is idle", () => {
    expect(collector).toBeDefined();
    for (const module of [HOME, GUESTBOOK])
      expect([...firstLoad(module).loaded]).not.toContain(`/${collector}`);
  });

  it(`is at most web-vitals itself + ${VITALS_OVER_LIBRARY_BUDGET} bytes gzipped`, async () => {
    const first = firstLoad(HOME).loaded;
    const extra = [...staticClosure([`/${collector}`])].filter((href) => !first.has(href));
    const total = extra.reduce((sum, href) => sum + stableGzip(asset(href)), 0);
    const library = await webVitalsItselfGzip();
    console.log(
      `Web Vitals JS: ${extra.length} files, ${total} B gzip; web-vitals itself ${library} B gzip; ` +
        `verge adds ${total - library} B`,
    );
    expect(readBuild().chunks[collector!]).toContain("node_modules/web-vitals/dist/web-vitals.js");
    expect(library).toBeGreaterThan(2_000); // a sanity check that web-vitals was really bundled
    expect(total).toBeLessThanOrEqual(library + VITALS_OVER_LIBRARY_BUDGET);
  });
});

describe("first loads, part by part (test/node/first-load.json)", () => {
  const parts: Record<string, Part> = {
    runtime: partOf("runtime"),
    [HOME]: partOf(HOME),
    [GUESTBOOK]: partOf(GUESTBOOK),
  };
  recordIfAsked(parts);

  it("keeps the runtime every page loads, beyond React itself, within its budget", async () => {
    const react = await reactItselfGzip();
    const own = total(parts.runtime!) - react;
    console.log(`runtime: ${own} B gzip beyond React itself (${react} B)`);
    expect(own, overBudget("runtime", parts.runtime!, react)).toBeLessThanOrEqual(
      recorded().parts.runtime!.budget,
    );
  });

  // A page's budget leaves room for its libraries moving to chunks of their own once a second page
  // imports them: the guestbook adds 5,247 B alone, 6,047 B beside a second valibot form (the
  // README's /about page and a signed-in notes section with a form, tried on 2026-11-29).
  for (const page of [HOME, GUESTBOOK]) {
    it(`keeps what ${page} adds to the runtime within its budget`, () => {
      console.log(`${page}: ${total(parts[page]!)} B gzip beyond the runtime`);
      expect(total(parts[page]!), overBudget(page, parts[page]!)).toBeLessThanOrEqual(
        recorded().parts[page]!.budget,
      );
    });
  }

  it("sets each example page's budget at least 5% over what it measured then", () => {
    for (const page of [HOME, GUESTBOOK]) {
      const { budget, chunks } = recorded().parts[page]!;
      expect(budget, page).toBeGreaterThanOrEqual(Math.ceil(total(chunks) * 1.05));
    }
  });
});
