// scripts/symbolicate.mjs on a real bundle: built and minified by esbuild, given its debug ID and
// kept as the builds keep theirs, run in Node to throw a real V8 stack, then mapped back.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepBuildMaps } from "../../scripts/build-maps.mjs";
import { injectDebugId } from "../../scripts/debug-ids.mjs";
import { symbolicator } from "../../scripts/symbolicate.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "verge-symbolicate-"));
const BUILD = "0123456789ab";
const SOURCE = [
  "// a page module that fails",
  "export function loadGuestbook(page: number) {",
  "  if (page > 0) throw new Error(`no page ${page}`);",
  "  return [];",
  "}",
  "export const padding = Array.from({ length: 50 }, (_, i) => i * 2);",
].join("\n");
let stack = "";

beforeAll(async () => {
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "src/guestbook.ts"), SOURCE);
  const outdir = path.join(dir, "out");
  await esbuild.build({
    entryPoints: { worker: path.join(dir, "src/guestbook.ts") },
    outdir,
    bundle: true,
    format: "esm",
    minify: true,
    sourcemap: "linked",
  });
  const file = path.join(outdir, "worker.js");
  const injected = injectDebugId(readFileSync(file, "utf8"), readFileSync(`${file}.map`, "utf8"), outdir);
  writeFileSync(file, injected.code);
  await keepBuildMaps({
    appDir: dir,
    build: BUILD,
    dev: false,
    files: [{ name: "worker.js", code: injected.code, map: injected.portableMap }],
  });
  // In a Node of its own: the tests' runner would map the stack itself.
  const run = `import(${JSON.stringify(pathToFileURL(file).href)}).then((m) => m.loadGuestbook(2))`;
  const child = spawnSync(process.execPath, ["-e", `${run}.catch((e) => console.log(e.stack))`], {
    encoding: "utf8",
  });
  stack = child.stdout.trim();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("symbolicate", () => {
  it("maps a frame in the bundle to the source file, line and column that threw", () => {
    expect(stack).toMatch(/worker\.js:\d+:\d+/);
    const mapped = symbolicator({ appDir: dir })(stack, BUILD);
    const line = SOURCE.split("\n").findIndex((l) => l.includes("throw new Error"));
    const column = SOURCE.split("\n")[line]!.indexOf("new Error") + 1;
    expect(mapped.split("\n")[1]).toMatch(
      new RegExp(`^    at \\S+ \\(.*src/guestbook\\.ts:${line + 1}:${column}\\)$`),
    );
    expect(mapped.split("\n")[0]).toBe("Error: no page 2");
  });

  it("leaves frames outside the bundle as they were", () => {
    const mapped = symbolicator({ appDir: dir })(stack, BUILD).split("\n");
    const outside = stack.split("\n").filter((l) => /^\s+at /.test(l) && !l.includes("worker.js"));
    expect(outside.length).toBeGreaterThan(0);
    for (const frame of outside) expect(mapped).toContain(frame);
  });

  it("leaves the stack as it was for a build whose maps are not kept, and says so once", () => {
    const missing: string[] = [];
    const symbolicate = symbolicator({ appDir: dir, onMissing: (build) => missing.push(build) });
    expect(symbolicate(stack, "ffffffffffff")).toBe(stack);
    expect(symbolicate(stack, "ffffffffffff")).toBe(stack);
    expect(missing).toEqual(["ffffffffffff"]);
  });

  it("leaves the stack as it was when the line names no build, or a build that is not an id", () => {
    const symbolicate = symbolicator({ appDir: dir });
    expect(symbolicate(stack, undefined)).toBe(stack);
    expect(symbolicate(stack, "../../etc")).toBe(stack);
  });
});
