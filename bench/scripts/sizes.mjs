// Byte figures: JavaScript per page (React apart from the rest), the worker bundle, and bodies.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as esbuild from "esbuild";
import { ENV, root } from "./server.mjs";

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
 * What a first load of each page fetches, as its document asks: the entry and every module it
 * preloads (the entry's imports, the page's chunk and its imports), each file counted once,
 * compressed on its own as it travels. `appDir` holds the client build the app was built with
 * (client-build.json, client/).
 */
export async function javascriptPerPage(url, pages, appDir) {
  const { manifest } = JSON.parse(await readFile(path.join(appDir, "client-build.json"), "utf8"));
  const react = await reactAlone();
  const out = {};
  for (const page of pages) {
    const html = await (await fetch(url + page)).text();
    const preloads = [...html.matchAll(/<link\b[^>]*>/g)]
      .filter(([tag]) => /\brel="modulepreload"/.test(tag))
      .map(([tag]) => /\bhref="([^"]+)"/.exec(tag)[1]);
    const files = new Set([manifest.entry, ...preloads]);
    let total = ZERO;
    for (const file of files) total = plus(total, sizes(await readFile(path.join(appDir, "client", file))));
    out[page] = { files: files.size, total, react, rest: minus(total, react) };
  }
  return out;
}

/** The worker bundle as `npm run deploy` uploads it: dist/verge/index.js, which `vite build` makes. */
export async function workerBundle() {
  const vite = path.join(root, "node_modules/vite/bin/vite.js");
  const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: root,
    env: ENV,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("vite build failed");
  return sizes(await readFile(path.join(root, "dist/verge/index.js")));
}

/** Body bytes of one answer (raw, and as gzip would carry it). */
export async function bodyBytes(url, init) {
  const response = await fetch(url, init);
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, ...sizes(body) };
}
