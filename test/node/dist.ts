// Reads the client build (`npm run build`) for tests in Node: manifest, chunks, metafile.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { ClientManifest } from "../../src/server/manifest";

export const root = path.resolve(import.meta.dirname, "../..");
export const assetsDir = path.join(root, "dist/client/assets");

export function readBuild() {
  const manifestPath = path.join(root, "dist/manifest.json");
  if (!existsSync(manifestPath)) throw new Error("Run `npm run build` first (npm test does).");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ClientManifest;
  const metafile = JSON.parse(readFileSync(path.join(root, "dist/client-metafile.json"), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  return { manifest, metafile };
}

/** Every JavaScript file the browser could ever load: name -> source. */
export function clientChunks(): Map<string, string> {
  const files = readdirSync(assetsDir).filter((name) => name.endsWith(".js"));
  return new Map(files.map((name) => [name, readFileSync(path.join(assetsDir, name), "utf8")]));
}

/** "/assets/x.js" -> the file's text. */
export function asset(href: string): string {
  return readFileSync(path.join(root, "dist/client", href), "utf8");
}

/** Static imports (`import ... from "./chunk.js"`) of a built chunk, as /assets/ paths. */
export function staticImports(href: string): string[] {
  const source = asset(href);
  const found = [...source.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?"(\.\/[^"]+\.js)"/g)];
  return found.map((match) => path.posix.join(path.posix.dirname(href), match[1]!));
}

/** A chunk and everything it statically imports, transitively: what the browser must fetch. */
export function staticClosure(hrefs: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (href: string) => {
    if (seen.has(href)) return;
    seen.add(href);
    staticImports(href).forEach(visit);
  };
  hrefs.forEach(visit);
  return seen;
}

export function gzipSize(content: string | Uint8Array): number {
  return gzipSync(content, { level: 9 }).length;
}
