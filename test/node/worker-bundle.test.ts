// The deployable worker: bundled as `npm run deploy` bundles it (scripts/build-worker.mjs, which
// wrangler.toml's [build] runs), production and minified.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gzipSize, root } from "./dist";
import { buildWorker } from "../../scripts/build-worker.mjs";

/** Budget for the worker bundle, gzipped (Workers' free plan allows 3 MB; startup time grows with size). */
const WORKER_BUDGET = 130_000;

const outdir = mkdtempSync(path.join(os.tmpdir(), "verge-worker-"));
let bundle = "";
let inputs: string[] = [];

beforeAll(async () => {
  // NODE_ENV stays as vitest set it ("test"): the build must still produce production code.
  const file = await buildWorker({ out: path.relative(root, outdir) });
  bundle = readFileSync(file, "utf8");
  const metafile = JSON.parse(readFileSync(path.join(outdir, "metafile.json"), "utf8"));
  inputs = Object.keys(metafile.inputs);
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("the worker bundle (scripts/build-worker.mjs)", () => {
  it("is what wrangler deploys: wrangler.toml builds it and uploads it unbundled", () => {
    const config = readFileSync(path.join(root, "wrangler.toml"), "utf8");
    expect(config).toMatch(/^main = "dist\/worker\/worker\.js"$/m);
    expect(config).toMatch(/^no_bundle = true$/m);
    expect(config).toMatch(/^command = "node scripts\/build-worker\.mjs"$/m);
  });

  it("bundles React's production edge renderer alone, minified", () => {
    expect(inputs.some((input) => input.endsWith("react-dom/cjs/react-dom-server.edge.production.js"))).toBe(
      true,
    );
    expect(inputs.filter((input) => /react[\w.-]*\.development|server-legacy/.test(input))).toEqual([]);
    // Minified code is long lines (newlines left only inside template literals); readable code is short ones.
    expect(bundle.length / bundle.split("\n").length, "mean line length").toBeGreaterThan(500);
  });

  it(`is under ${WORKER_BUDGET} bytes gzipped`, () => {
    const size = gzipSize(bundle);
    console.log(`worker bundle: ${bundle.length} B raw, ${size} B gzip`);
    expect(size).toBeLessThan(WORKER_BUDGET);
  });
});
