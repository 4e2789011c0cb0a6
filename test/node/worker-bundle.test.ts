// The deployable worker: dist/verge/index.js, one file that `vite build` bundles (the Cloudflare
// plugin, as vite.config.ts sets it up) and `wrangler deploy` uploads as it is: production React
// and minified.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gzipSize, root, workerFile } from "./dist";

/** Budget for the worker bundle, gzipped (Workers' free plan allows 3 MB; startup time grows with size). */
const WORKER_BUDGET = 130_000;

const bundle = readFileSync(workerFile, "utf8");
/** The modules that put code in the bundle, root-relative (its map, as verge/vite writes it). */
const sources = JSON.parse(readFileSync(`${workerFile}.map`, "utf8")).sources as string[];
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

describe("the worker bundle (vite build)", () => {
  it("is what wrangler deploys: the build's redirect names its config, which uploads index.js unbundled", () => {
    // wrangler.toml names the source; the Cloudflare plugin writes the built worker's config and
    // points `wrangler deploy` at it.
    expect(readFileSync(path.join(root, "wrangler.toml"), "utf8")).toMatch(/^main = "src\/worker\.ts"$/m);
    const redirect = readJson(".wrangler/deploy/config.json");
    expect(path.resolve(root, ".wrangler/deploy", redirect.configPath)).toBe(
      path.join(root, "dist/verge/wrangler.json"),
    );
    const config = readJson("dist/verge/wrangler.json");
    expect(path.resolve(root, "dist/verge", config.main)).toBe(workerFile);
    expect(config.no_bundle).toBe(true);
    expect(path.resolve(root, "dist/verge", config.assets.directory)).toBe(path.join(root, "dist/client"));
  });

  it("bundles React's production Node renderer alone, minified", () => {
    expect(sources).toContain("node_modules/react-dom/cjs/react-dom-server.node.production.js");
    expect(
      sources.filter((source) => /react[\w.-]*\.development|server-legacy|server\.edge/.test(source)),
    ).toEqual([]);
    expect(bundle).not.toContain("react-dom-server-legacy");
    expect(bundle).not.toContain("Each child in a list should have a unique"); // a development-only warning
    // Minified code is long lines (newlines left only inside template literals); readable code is short ones.
    expect(bundle.length / bundle.split("\n").length, "mean line length").toBeGreaterThan(500);
  });

  it("loads one of React's Node built-ins with the isolate, the others when first used", () => {
    // Imports are evaluated before the Worker's first request can run: node:crypto's and
    // node:stream's JavaScript made its start-up twice as dear, for what verge never calls.
    const imported = [...bundle.matchAll(/\bimport\s*\*?\s*(?:as\s+\w+\s*)?from\s*"([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(imported.filter((specifier) => !specifier.startsWith("cloudflare:"))).toEqual(["async_hooks"]);
    expect(/getBuiltinModule\(.node:crypto.\)/.test(bundle), "node:crypto loaded when first used").toBe(true);
  });

  it("holds the whole worker in one file: the pages too", () => {
    const modules = readdirSync(path.dirname(workerFile), { recursive: true })
      .map(String)
      .filter((file) => /\.m?js$/.test(file));
    expect(modules).toEqual(["index.js"]);
    expect(sources).toContain("src/app/pages/guestbook.tsx");
    expect(sources).toContain("src/worker.ts");
  });

  it(`is under ${WORKER_BUDGET} bytes gzipped`, () => {
    const size = gzipSize(bundle);
    console.log(`worker bundle: ${bundle.length} B raw, ${size} B gzip`);
    expect(size).toBeLessThan(WORKER_BUDGET);
  });
});
