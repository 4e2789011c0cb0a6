// Byte figures: JavaScript per page (React apart from the rest), the worker bundle, and bodies.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { ENV, root } from "./server.mjs";
import { buildDeployBundle } from "./bundle.mjs";

export function sizes(bytes) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const minus = (a, b) => ({ raw: a.raw - b.raw, gzip: a.gzip - b.gzip, brotli: a.brotli - b.brotli });
const plus = (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli });
const ZERO = { raw: 0, gzip: 0, brotli: 0 };

/**
 * React itself, as the browser gets it: react, react-dom/client and the JSX runtime bundled
 * alone with the client build's settings (minified, production). What a page ships beyond
 * this is the framework and the product.
 */
async function reactAlone() {
  const result = await esbuild.build({
    stdin: {
      contents: `export * from "react"; export * from "react/jsx-runtime"; export * from "react-dom/client"; export { preloadModule } from "react-dom";`,
      resolveDir: root,
    },
    bundle: true,
    format: "esm",
    minify: true,
    write: false,
    legalComments: "none",
    target: ["es2022"],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  return sizes(result.outputFiles[0].contents);
}

/**
 * What a first load of each route fetches: the entry, its static imports, the route's chunk
 * and its imports (each file counted once, compressed on its own as it travels).
 */
export async function javascriptPerPage(patterns) {
  const manifest = JSON.parse(await readFile(path.join(root, "dist/manifest.json"), "utf8"));
  const react = await reactAlone();
  const pages = {};
  for (const pattern of patterns) {
    const route = manifest.routes[pattern];
    if (!route) continue;
    const files = new Set([manifest.entry, ...manifest.entryImports, route.module, ...route.imports]);
    let total = ZERO;
    for (const file of files)
      total = plus(total, sizes(await readFile(path.join(root, "dist/client", file))));
    pages[pattern] = { files: files.size, total, react, rest: minus(total, react) };
  }
  return pages;
}

/** The worker bundle as `npm run deploy` would upload it (bundle.mjs), in a temporary folder. */
export async function workerBundle() {
  const outdir = await mkdtemp(path.join(os.tmpdir(), "verge-bundle-"));
  try {
    let total = ZERO;
    for (const file of await buildDeployBundle(outdir)) total = plus(total, sizes(await readFile(file)));
    return total;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

/** Body bytes of one answer (raw, and as gzip would carry it). */
export async function bodyBytes(url, init) {
  const response = await fetch(url, init);
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, ...sizes(body) };
}
