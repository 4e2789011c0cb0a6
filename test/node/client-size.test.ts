// The client's JavaScript budget: what "/" loads may exceed React itself by at most 6 KB gzip.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const BUDGET_BYTES = 6 * 1024;

const gzipSize = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).byteLength;

/** React alone, built the way the client build builds: hydrateRoot, hooks, transitions, JSX. */
async function reactGzipBytes(): Promise<number> {
  const result = await esbuild.build({
    stdin: {
      contents: `import { hydrateRoot } from "react-dom/client";
        import { createContext, startTransition, use, useContext, useEffect, useLayoutEffect, useMemo, useState } from "react";
        import { jsx } from "react/jsx-runtime";
        globalThis.x = [hydrateRoot, createContext, startTransition, use, useContext, useEffect, useLayoutEffect, useMemo, useState, jsx];`,
      resolveDir: root,
    },
    bundle: true,
    minify: true,
    format: "esm",
    target: ["es2022"],
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    legalComments: "none",
  });
  return gzipSize(result.outputFiles[0]!.contents);
}

describe("client bundle size", () => {
  it('keeps the JavaScript "/" loads within React + 6 KB gzip', async () => {
    const manifest = JSON.parse(await readFile(path.join(root, "dist/manifest.json"), "utf8"));
    const home = manifest.routes["/"];
    const files = new Set<string>([manifest.entry, ...manifest.entryImports, home.module, ...home.imports]);
    let total = 0;
    for (const file of files) total += gzipSize(await readFile(path.join(root, "dist/client", file)));
    const react = await reactGzipBytes();
    console.log(
      `"/" loads ${files.size} files, ${total} B gzip; React alone ${react} B; app ${total - react} B`,
    );
    expect(total - react).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
