// verge/vite's build marks React's and Hono's functions for V8 to compile as the Worker starts
// (src/vite/compile-at-start.ts): each stands in parentheses, each top-level declaration becomes a
// variable at the top of its module. The module must do exactly what it did; the marks must be
// where V8 looks for them; the source map must still lead to the line written.
import { decode } from "@jridgewell/sourcemap-codec";
import { parseAst } from "vite";
import { describe, expect, it } from "vitest";
import { compiledAtStart, markEager } from "../../src/vite/compile-at-start";

const MODULE = `"use strict";
import { strictEqual } from "node:assert";
export const early = later(2);
export function later(n) {
  return n * 2;
}
export const counted = [...counts()].length;
async function waits() {
  return 1;
}
function* counts() {
  yield 1;
  yield 2;
}
const shape = { method() { return 1; }, get value() { return 2; }, arrow: () => 3 };
class Kind {
  method() { return 4; }
  field = () => 5;
}
export const mapped = [1, 2].map(function (x) { return x + 1; }).map((x) => x * 10);
export const inParentheses = (function () { return 6; });
export const results = async () => [await waits(), shape.method(), shape.value, shape.arrow(), new Kind().method(), new Kind().field()];
export default function named() { strictEqual(1, 1); return 7; }
`;

const marked = (code: string) => markEager(code, parseAst(code) as never);
const load = async (code: string) =>
  (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as Record<string, unknown>;

describe("marking a module's functions to compile as it loads", () => {
  const out = marked(MODULE)!;

  it("leaves the module doing what it did: hoisting, exports, generators, async, methods", async () => {
    const before = await load(MODULE);
    const after = await load(out.code);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    // `later` is called above its declaration, `counts` before its line too: still hoisted.
    expect(after.early).toBe(4);
    expect(after.counted).toBe(2);
    expect(after.mapped).toEqual([20, 30]);
    expect((after.inParentheses as () => number)()).toBe(6);
    expect(await (after.results as () => Promise<number[]>)()).toEqual([1, 1, 2, 3, 4, 5]);
    expect((after.default as () => number)()).toBe(7);
    expect((after.later as { name: string }).name).toBe("later");
  });

  it("puts each function where V8 compiles it with the module: in parentheses", () => {
    const code = out.code;
    expect(code.indexOf('"use strict"'), "the directive stays first").toBe(0);
    expect(code).toMatch(/export var later = \(function later\(n\)/);
    expect(code).toMatch(/var waits = \(async function waits\(\)/);
    expect(code).toMatch(/var counts = \(function\* counts\(\)/);
    expect(code).toContain(".map((function (x)");
    expect(code).toContain(".map(((x) => x * 10))");
    expect(code).toContain("arrow: (() => 3)");
    expect(code).toContain("field = (() => 5)");
    // Declarations above every other statement, as hoisting placed them.
    expect(code.indexOf("var counts")).toBeLessThan(code.indexOf("import {"));
    // What already stood in its own parentheses, methods and accessors (which may not) are left.
    expect(code).toContain("inParentheses = (function () { return 6; })");
    expect(code).toContain("method() { return 1; }, get value() { return 2; }");
    expect(code).toContain("export default function named()");
    expect(marked("export const n = 1;\nclass A { m() {} }\n")).toBeNull();
  });

  it("maps a moved declaration back to the line it was written on", () => {
    const lines = decode(out.map.mappings);
    const index = out.code.indexOf("return n * 2");
    const line = out.code.slice(0, index).split("\n").length - 1;
    const column = index - out.code.lastIndexOf("\n", index - 1) - 1;
    const segment = lines[line]!.filter((s) => s[0] <= column).at(-1)!;
    expect(segment[2], "original line (0-based)").toBe(MODULE.split("\n").indexOf("  return n * 2;"));
  });
});

describe("what compiles as the Worker starts", () => {
  it.each([
    ["/app/node_modules/react-dom/cjs/react-dom-server.node.production.js", true],
    ["/app/node_modules/react/cjs/react-jsx-runtime.production.js", true],
    ["/app/node_modules/hono/dist/hono-base.js?v=1", true],
    ["/app/node_modules/.pnpm/hono@4/node_modules/hono/dist/compose.js", true],
    ["/app/node_modules/toucan-js/dist/index.esm.js", false],
    ["/app/src/server/create-app.ts", false],
    ["/app/src/app/pages/home.tsx", false],
    ["/app/node_modules/react-dom/some.css", false],
  ])("%s: %s", (id, expected) => {
    expect(compiledAtStart(id)).toBe(expected);
  });
});
