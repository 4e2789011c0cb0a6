// scripts/symbolicate.mjs on a real bundle: built and minified by esbuild, given its debug ID as
// verge/vite gives the worker's (scripts/debug-ids.mjs) and kept as the builds keep theirs, run in
// Node from where `npm run preview` runs the worker (dist/verge/index.js) to throw a real V8 stack,
// then mapped back.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepBuildMaps } from "../../scripts/build-maps.mjs";
import { debugIdSnippet, withDebugId } from "../../scripts/debug-ids.mjs";
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
  const outdir = path.join(dir, "dist/verge");
  await esbuild.build({
    entryPoints: { index: path.join(dir, "src/guestbook.ts") },
    outdir,
    bundle: true,
    format: "esm",
    minify: true,
    sourcemap: "linked",
  });
  const file = path.join(outdir, "index.js");
  // As verge/vite appends it: after the minified code, before the map link, so no mapping moves.
  const [built, link] = readFileSync(file, "utf8").split(/\n(?=\/\/# sourceMappingURL=)/);
  const code = `${built!.trimEnd()}\n${debugIdSnippet(built!)}${link}`;
  writeFileSync(file, code);
  const map = withDebugId(JSON.parse(readFileSync(`${file}.map`, "utf8")), code, outdir);
  await keepBuildMaps({
    appDir: path.join(dir, "dist"),
    build: BUILD,
    dev: false,
    files: [{ name: "index.js", code, map }],
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
  /** Where the failing line is in SOURCE, as a frame names it. */
  const thrower = () => {
    const line = SOURCE.split("\n").findIndex((l) => l.includes("throw new Error"));
    const column = SOURCE.split("\n")[line]!.indexOf("new Error") + 1;
    return new RegExp(`^    at \\S+ \\(.*src/guestbook\\.ts:${line + 1}:${column}\\)$`);
  };

  it("maps a frame in the bundle run locally (dist/verge/index.js) to the source file, line and column that threw", () => {
    expect(stack).toMatch(/\/dist\/verge\/index\.js:\d+:\d+/);
    const mapped = symbolicator({ appDir: path.join(dir, "dist") })(stack, BUILD);
    expect(mapped.split("\n")[1]).toMatch(thrower());
    expect(mapped.split("\n")[0]).toBe("Error: no page 2");
  });

  it("maps a frame in the deployed bundle, which workerd names index.js", () => {
    const deployed = stack.replace(/file:\/\/\S+\/dist\/verge\/index\.js/g, "index.js");
    expect(deployed).toMatch(/\(index\.js:\d+:\d+\)/);
    const mapped = symbolicator({ appDir: path.join(dir, "dist") })(deployed, BUILD);
    expect(mapped.split("\n")[1]).toMatch(thrower());
  });

  it("leaves a frame in another file named index.js as it was", () => {
    const other = stack.replace(
      /file:\/\/\S+\/dist\/verge\/index\.js/g,
      "/app/node_modules/hono/dist/index.js",
    );
    expect(symbolicator({ appDir: path.join(dir, "dist") })(other, BUILD)).toBe(other);
  });

  it("leaves frames outside the bundle as they were", () => {
    const mapped = symbolicator({ appDir: path.join(dir, "dist") })(stack, BUILD).split("\n");
    const outside = stack.split("\n").filter((l) => /^\s+at /.test(l) && !l.includes("index.js"));
    expect(outside.length).toBeGreaterThan(0);
    for (const frame of outside) expect(mapped).toContain(frame);
  });

  it("leaves the stack as it was for a build whose maps are not kept, and says so once", () => {
    const missing: string[] = [];
    const symbolicate = symbolicator({
      appDir: path.join(dir, "dist"),
      onMissing: (build) => missing.push(build),
    });
    expect(symbolicate(stack, "ffffffffffff")).toBe(stack);
    expect(symbolicate(stack, "ffffffffffff")).toBe(stack);
    expect(missing).toEqual(["ffffffffffff"]);
  });

  it("leaves the stack as it was when the line names no build, or a build that is not an id", () => {
    const symbolicate = symbolicator({ appDir: path.join(dir, "dist") });
    expect(symbolicate(stack, undefined)).toBe(stack);
    expect(symbolicate(stack, "../../etc")).toBe(stack);
  });
});
