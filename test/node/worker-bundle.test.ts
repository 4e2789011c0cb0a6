// The deployable worker: bundled the way `npm run deploy` bundles it, production and minified.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gzipSize, root } from "./dist";
import { buildDeployBundle } from "../../scripts/bench/deploy-bundle.mjs";

/** Budget for the worker bundle, gzipped (Workers' free plan allows 3 MB; startup time grows with size). */
const WORKER_BUDGET = 130_000;

const outdir = mkdtempSync(path.join(os.tmpdir(), "verge-worker-"));
let bundle = "";

beforeAll(() => {
  // The wrangler command of `npm run check:deploy` (the same flags as `npm run deploy`), into a
  // temporary folder. NODE_ENV stays as vitest set it ("test"): the script must force production itself.
  const [main] = buildDeployBundle(outdir, {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
  });
  bundle = readFileSync(main!, "utf8");
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("the worker bundle (wrangler deploy --dry-run)", () => {
  it("bundles React's production build, minified, as `npm run deploy` does", () => {
    const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts;
    const flags = (script: string) =>
      script.slice(script.indexOf("wrangler deploy")).replace(/ --(dry-run|outdir \S+)/g, "");
    expect(flags(scripts.deploy)).toBe(flags(scripts["check:deploy"]));
    // esbuild keeps each CommonJS module's path as a name: which React builds went in.
    expect(bundle).toContain("react-dom-server.edge.production");
    expect(bundle).not.toMatch(/react[\w.-]*\.development/);
    // Minified code is long lines (newlines left only inside template literals); readable code is short ones.
    expect(bundle.length / bundle.split("\n").length, "mean line length").toBeGreaterThan(500);
  });

  it(`is under ${WORKER_BUDGET} bytes gzipped`, () => {
    const size = gzipSize(bundle);
    console.log(`worker bundle: ${bundle.length} B raw, ${size} B gzip`);
    expect(size).toBeLessThan(WORKER_BUDGET);
  });
});
