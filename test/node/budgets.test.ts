// Byte budgets for what visitors download, measured on the production build (npm run build).
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { modulePreloads } from "../../src/server/manifest";
import { asset, gzipSize, readBuild, root, staticClosure } from "./dist";

/** The budget for every byte of JavaScript the home page loads, gzipped. */
const HOME_JS_BUDGET = 75_000;
/** What verge may add on top of React itself (react + react-dom/client), gzipped. */
const OVER_REACT_BUDGET = 6_000;

/** react + react-dom/client alone: minified production, bundled by esbuild, gzipped. */
async function reactItselfGzip(): Promise<number> {
  const result = await esbuild.build({
    absWorkingDir: root,
    stdin: {
      contents: `export * as React from "react"; export * as ReactDOM from "react-dom/client";`,
      resolveDir: root,
      loader: "ts",
    },
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

describe("JavaScript budget of the home page", () => {
  const { manifest } = readBuild();
  const home = manifest.routes["/"]!;
  // The entry and the route's chunk start loading at once; the browser then fetches their static imports.
  const loaded = staticClosure([manifest.entry, home.module]);

  it("preloads exactly the chunks the home page loads", () => {
    const referenced = new Set([manifest.entry, ...modulePreloads(manifest, "/")]);
    expect([...referenced].sort()).toEqual([...loaded].sort());
  });

  it(`is at most ${HOME_JS_BUDGET} bytes gzipped, and at most React itself + ${OVER_REACT_BUDGET}`, async () => {
    const sizes = [...loaded].map((href) => ({ href, gzip: gzipSize(asset(href)), raw: asset(href).length }));
    const total = sizes.reduce((sum, file) => sum + file.gzip, 0);
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
