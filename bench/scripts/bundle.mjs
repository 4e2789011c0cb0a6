// The worker as `npm run deploy` uploads it (scripts/build-worker.mjs, production, minified),
// built into a folder: what the benchmark runs and weighs. The benchmark's floor and loop workers
// are bundled the same way, so the app and the floor differ only in their code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildWorker } from "../../scripts/build-worker.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** The entry module of `config`: the app's is src/worker.ts (its `main` is the built bundle). */
function entryOf(config) {
  if (!config || path.resolve(root, config) === path.join(root, "wrangler.toml")) return "src/worker.ts";
  const main = /^main\s*=\s*"([^"]+)"/m.exec(readFileSync(config, "utf8"))?.[1];
  if (!main) throw new Error(`${config} names no main module`);
  return path.relative(root, path.resolve(path.dirname(config), main));
}

/**
 * Bundles the Worker of `config` (default: wrangler.toml) into `outdir`; returns its .js files.
 * `script` replaces the config's entry; `minify: false` keeps names readable (for profiles).
 */
export async function buildDeployBundle(outdir, { config, script, minify = true } = {}) {
  const entry = script ? path.relative(root, path.resolve(root, script)) : entryOf(config);
  return [await buildWorker({ entry, out: outdir, production: true, minify })];
}
