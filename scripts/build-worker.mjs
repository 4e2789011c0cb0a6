// Bundles a worker entry with esbuild, as wrangler would, into <out>/worker.js with its source map.
// wrangler.toml runs it as the custom build of `wrangler dev` and `wrangler deploy`, which then
// take the bundle as it is (no_bundle), so what runs locally is what deploys.
//   node scripts/build-worker.mjs                        the product: src/worker.ts -> dist/worker
//   node scripts/build-worker.mjs --entry F --out DIR     another app on the same runtime
// It builds React's production code, minified, unless NODE_ENV=development (`npm run dev` sets
// it), which builds React's development code, readable. Either way the bundle and its map carry a
// Sentry debug ID (scripts/debug-ids.mjs), and a copy of both goes to the maps folder of the
// client build the worker embeds (scripts/build-maps.mjs).
import * as esbuild from "esbuild";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { keepBuildMaps } from "./build-maps.mjs";
import { injectDebugIdInFile } from "./debug-ids.mjs";

const root = path.resolve(import.meta.dirname, "..");

/**
 * "react-dom/server" for workerd is server.edge.js, which also bundles React's legacy string
 * renderer (renderToString, ~40 KB gzip of CommonJS that cannot be tree-shaken); nothing here
 * calls it. This resolves the import to the edge renderer alone, found through the installed
 * package (its package.json, which the package exports), wherever npm put it.
 */
function edgeRendererOnly(production) {
  return {
    name: "react-dom-server-edge-only",
    setup(build) {
      build.onResolve({ filter: /^react-dom\/server$/ }, async (args) => {
        const pkg = await build.resolve("react-dom/package.json", {
          kind: "require-call",
          resolveDir: args.resolveDir,
        });
        if (pkg.errors.length > 0) return { errors: pkg.errors };
        const mode = production ? "production" : "development";
        const file = path.join(path.dirname(pkg.path), "cjs", `react-dom-server.edge.${mode}.js`);
        return { path: file };
      });
    },
  };
}

/** The esbuild options for a worker bundle (the worker tests' Vite config mirrors the plugin). */
function workerBuildOptions({ entry, out, production, minify = production }) {
  return {
    absWorkingDir: root,
    entryPoints: { worker: entry },
    outdir: path.resolve(root, out),
    bundle: true,
    format: "esm",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*"],
    minify,
    // No code reads a function's name (error classes set theirs): names are not kept.
    keepNames: false,
    sourcemap: "linked",
    sourcesContent: true,
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") },
    loader: { ".js": "jsx", ".mjs": "jsx", ".cjs": "jsx" },
    plugins: [edgeRendererOnly(production)],
  };
}

/** Builds the worker; returns the bundle's path. */
export async function buildWorker({
  entry = "src/worker.ts",
  out = "dist/worker",
  production = process.env.NODE_ENV !== "development",
  minify = production,
} = {}) {
  const outdir = path.resolve(root, out);
  // wrangler dev starts a second build when a second save comes before the first ends (`npm run
  // dev`, Fast Refresh). Each build works in a folder of its own beside `outdir` (the same depth,
  // so the map's relative sources hold) and moves its files in at the end, each by one rename:
  // no build empties, or reads half-written, another's files.
  await mkdir(path.dirname(outdir), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(outdir), `.${path.basename(outdir)}-`));
  try {
    let metafile;
    try {
      ({ metafile } = await esbuild.build(workerBuildOptions({ entry, out: staging, production, minify })));
    } catch (error) {
      const messages =
        error.errors?.map((e) => `${e.location?.file ?? ""} ${e.text}`).join("\n") ?? error.message;
      throw new Error(`worker build of ${entry} failed:\n${messages}`);
    }
    // Which modules went in (test/node reads it); wrangler uploads worker.js alone.
    await writeFile(path.join(staging, "metafile.json"), JSON.stringify(metafile));
    const { code, portableMap } = await injectDebugIdInFile(path.join(staging, "worker.js"), {
      writeMap: true,
    });
    const manifest = embeddedManifest(metafile);
    if (manifest) {
      const { build } = JSON.parse(await readFile(manifest, "utf8"));
      const appDir = path.dirname(manifest);
      const files = [{ name: "worker.js", code, map: portableMap }];
      await keepBuildMaps({ appDir, build, dev: !production, files });
    }
    await mkdir(outdir, { recursive: true });
    // The bundle last: whoever sees the new worker.js finds its map and metafile already there.
    for (const name of ["metafile.json", "worker.js.map", "worker.js"]) {
      await rename(path.join(staging, name), path.join(outdir, name));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return path.join(outdir, "worker.js");
}

/** The client manifest the worker embeds (its build id keys the maps folder), if it embeds one. */
function embeddedManifest(metafile) {
  const input = Object.keys(metafile.inputs).find(
    (name) => /(^|\/)manifest\.json$/.test(name) && !name.includes("node_modules/"),
  );
  return input && path.join(root, input);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { entry: { type: "string" }, out: { type: "string" } },
  });
  const started = performance.now();
  try {
    const file = await buildWorker(values);
    const size = (await readFile(file)).length;
    const ms = Math.round(performance.now() - started);
    console.log(`[worker] built ${path.relative(root, file)} (${Math.round(size / 1024)} KiB) in ${ms} ms`);
  } catch (error) {
    console.error(`[worker] ${error.message}`);
    process.exit(1);
  }
}
