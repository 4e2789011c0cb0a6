// Reads the production build (`npm run build`, which is `vite build`) for tests in Node: the client
// manifest and each chunk's modules (dist/client-build.json), the chunks, the worker.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { ClientManifest } from "../../src/server/manifest";

export const root = path.resolve(import.meta.dirname, "../..");
export const assetsDir = path.join(root, "dist/client/assets");
/** The worker bundle `wrangler deploy` uploads (dist/verge/wrangler.json's `main`). */
export const workerFile = path.join(root, "dist/verge/index.js");

/** What verge/vite leaves beside the client build (src/vite/manifest.ts, BUILD_REPORT). */
export interface ClientBuild {
  manifest: ClientManifest;
  /** By chunk ("assets/x.js"): the modules (root-relative) that put bytes in it. */
  chunks: Record<string, string[]>;
}

export function readBuild(dir = path.join(root, "dist")): ClientBuild {
  const report = path.join(dir, "client-build.json");
  if (!existsSync(report)) throw new Error("Run `npm run build` first (npm test does).");
  return JSON.parse(readFileSync(report, "utf8")) as ClientBuild;
}

/** The build's maps folder (scripts/build-maps.mjs): its bundles and their maps, never served. */
export const mapsDir = (build = readBuild().manifest.build) => path.join(root, "dist/sourcemaps", build);

/** Every JavaScript file the browser could ever load: name -> source. */
export function clientChunks(dir = assetsDir): Map<string, string> {
  const files = readdirSync(dir).filter((name) => name.endsWith(".js"));
  return new Map(files.map((name) => [name, readFileSync(path.join(dir, name), "utf8")]));
}

/** "/assets/x.js" -> the file's text. */
export function asset(href: string): string {
  return assetIn(path.join(root, "dist/client"), href);
}

/** The same, in the build whose client folder is `dir`. */
export function assetIn(dir: string, href: string): string {
  return readFileSync(path.join(dir, href), "utf8");
}

/**
 * Static imports of a built chunk, as /assets/ paths: `import"./x.js"` and
 * `import{a as b}from"./x.js"` as minified, `import ... from "./x.js"` as written. Dynamic
 * `import(...)` calls are not static imports.
 */
export function staticImports(href: string, dir = path.join(root, "dist/client")): string[] {
  const source = assetIn(dir, href);
  const found = [...source.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?"(\.\/[^"]+\.js)"/g)];
  return found.map((match) => path.posix.join(path.posix.dirname(href), match[1]!));
}

/** A chunk and everything it statically imports, transitively: what the browser must fetch. */
export function staticClosure(hrefs: string[], dir?: string): Set<string> {
  const seen = new Set<string>();
  const visit = (href: string) => {
    if (seen.has(href)) return;
    seen.add(href);
    staticImports(href, dir).forEach(visit);
  };
  hrefs.forEach(visit);
  return seen;
}

export function gzipSize(content: string | Uint8Array): number {
  return gzipSync(content, { level: 9 }).length;
}
