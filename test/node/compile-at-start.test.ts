// verge/vite's build marks React's functions for V8 to compile as the Worker starts
// (src/vite/compile-at-start.ts): each stands in parentheses, each top-level declaration becomes a
// variable at the top of its module. The module must do exactly what it did; the marks must be
// where V8 looks for them; the source map must still lead to the line written.
import { createRequire } from "node:module";
import path from "node:path";
import { readFileSync } from "node:fs";
import { decode } from "@jridgewell/sourcemap-codec";
import { parseAst } from "vite";
import { describe, expect, it } from "vitest";
import { compiledAtStart, markToCompileAtStart } from "../../src/vite/compile-at-start";

const marked = (code: string) => markToCompileAtStart(code, parseAst(code) as never);

/** A CommonJS module, as React's files are: what it exports, run as Node would run it. */
function runCommonJs<T = Record<string, unknown>>(
  code: string,
  require: (id: string) => unknown = createRequire(import.meta.url),
): T {
  const module = { exports: {} as T };
  new Function("module", "exports", "require", code)(module, module.exports, require);
  return module.exports;
}

const COMMON_JS = `"use strict";
var early = later(2);
function later(n) {
  return n * 2;
}
var counted = [...counts()].length;
async function waits() {
  return 1;
}
function* counts() {
  yield 1;
  yield 2;
}
function replaced() {
  replaced = function () { return 2; };
  return 1;
}
function twice() { return 1; }
function twice() { return 2; }
if (early) { var shadowed = 1; }
function shadowed() { return 3; }
var shape = { method() { return 1; }, get value() { return 2; }, arrow: () => 3 };
class Kind {
  method() { return 4; }
  field = () => 5;
}
var noSemicolon = 1
function between() { return noSemicolon; }
(function () { exports.ranAtOnce = true; })();
exports.early = early;
exports.counted = counted;
exports.replaced = [replaced(), replaced()];
exports.twice = twice();
exports.shadowed = shadowed;
exports.between = between();
exports.mapped = [1, 2].map(function (x) { return x + 1; }).map((x) => x * 10);
exports.name = later.name;
exports.results = async () => [await waits(), shape.method(), shape.value, shape.arrow(), new Kind().method(), new Kind().field()];
`;

describe("marking a module's functions to compile as it loads", () => {
  const out = marked(COMMON_JS)!;

  it("leaves the module doing what it did: hoisting, reassignment, duplicates, generators, async", async () => {
    const before = runCommonJs(COMMON_JS);
    const after = runCommonJs(out.code);
    const { results: resultsBefore, ...valuesBefore } = before;
    const { results, ...values } = after;
    expect(values).toEqual(valuesBefore);
    expect(values).toEqual({
      ranAtOnce: true,
      early: 4, // `later` called above its declaration: still hoisted
      counted: 2,
      replaced: [1, 2], // a function that replaces itself, as a declaration may
      twice: 2, // declared twice: the last one, as before
      shadowed: 1, // a `var` of the same name: as before
      between: 1, // a declaration between two statements without a semicolon
      mapped: [20, 30],
      name: "later",
    });
    expect(await (results as () => Promise<number[]>)()).toEqual(
      await (resultsBefore as () => Promise<number[]>)(),
    );
    expect(await (results as () => Promise<number[]>)()).toEqual([1, 1, 2, 3, 4, 5]);
    // Declared twice from the first line on: moving both would put the second above the first.
    const first = "function f() { return 1; }\nfunction f() { return 2; }\nexports.f = f();\n";
    expect(runCommonJs(marked(first)?.code ?? first)).toEqual({ f: 2 });
  });

  it("puts each function where V8 compiles it with the module: in parentheses", () => {
    const code = out.code;
    expect(code.indexOf('"use strict"'), "the directive stays first").toBe(0);
    expect(code).toMatch(/var later = \(function \(n\)/);
    expect(code).toMatch(/var waits = \(async function \(\)/);
    expect(code).toMatch(/var counts = \(function\* \(\)/);
    expect(code).toContain(".map((function (x)");
    expect(code).toContain(".map(((x) => x * 10))");
    expect(code).toContain("arrow: (() => 3)");
    expect(code).toContain("field = (() => 5)");
    // Declarations above every other statement, as hoisting placed them.
    expect(code.indexOf("var counts")).toBeLessThan(code.indexOf("var early"));
    // What already stood in its own parentheses, methods and accessors (which may not) are left,
    // and so are names declared twice.
    expect(code).toContain("(function () { exports.ranAtOnce = true; })();");
    expect(code).toContain("method() { return 1; }, get value() { return 2; }");
    expect(code).toContain("function twice() { return 1; }");
    expect(code).toContain("function shadowed() { return 3; }");
    expect(marked("var n = 1;\nclass A { m() {} }\n")).toBeNull();
  });

  it("leaves an ES module's exported declarations, which an import cycle may call before it runs", async () => {
    const esm =
      "export function hoisted() { return [1].map((n) => n); }\nexport default function named() { return 7; }\n";
    const code = marked(esm)!.code;
    expect(code).toContain("export function hoisted()");
    expect(code).toContain("export default function named()");
    expect(code).toContain(".map(((n) => n))");
    const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
    expect([module.hoisted(), module.default()]).toEqual([[1], 7]);
  });

  it("maps a moved declaration back to the line it was written on", () => {
    const lines = decode(out.map.mappings);
    const index = out.code.indexOf("return n * 2");
    const line = out.code.slice(0, index).split("\n").length - 1;
    const column = index - out.code.lastIndexOf("\n", index - 1) - 1;
    const segment = lines[line]!.filter((s) => s[0] <= column).at(-1)!;
    expect(segment[2], "original line (0-based)").toBe(COMMON_JS.split("\n").indexOf("  return n * 2;"));
  });

  it("leaves React's Node renderer writing the same HTML, marked", async () => {
    const require = createRequire(import.meta.url);
    const cjs = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs");
    const fromCjs = createRequire(path.join(cjs, "x.js"));
    // Production React throughout, as the worker bundles it (the test runs with NODE_ENV=test).
    const reactDir = path.dirname(require.resolve("react/package.json"));
    const React = fromCjs(path.join(reactDir, "cjs/react.production.js")) as typeof import("react");
    const production: Record<string, unknown> = {
      react: React,
      "react-dom": fromCjs("./react-dom.production.js"),
    };
    type Server = typeof import("react-dom/server");
    const load = (code: string) => runCommonJs<Server>(code, (id) => production[id] ?? fromCjs(id));
    const source = readFileSync(path.join(cjs, "react-dom-server.node.production.js"), "utf8");
    const markedSource = marked(source)!.code;
    expect(markedSource.match(/\(function\b/g)!.length).toBeGreaterThan(300);
    const later = Promise.resolve("resolved");
    const Later = () => React.createElement("em", null, React.use(later));
    const page = () =>
      React.createElement(
        "main",
        null,
        React.createElement("h1", { id: "t" }, "Rows & <more>"),
        React.createElement(React.Suspense, { fallback: "…" }, React.createElement(Later)),
      );
    const html = async (server: Server) => {
      const stream = await server.renderToReadableStream(page());
      await stream.allReady;
      return new Response(stream).text();
    };
    const expected = await html(load(source));
    expect(expected).toContain("<em>resolved</em>");
    expect(await html(load(markedSource))).toBe(expected);
  });
});

describe("what compiles as the Worker starts", () => {
  it.each([
    ["/app/node_modules/react-dom/cjs/react-dom-server.node.production.js", true],
    ["/app/node_modules/react/cjs/react-jsx-runtime.production.js?v=1", true],
    ["/app/node_modules/.pnpm/react@19/node_modules/react/cjs/react.production.js", true],
    ["/app/node_modules/hono/dist/hono-base.js", false],
    ["/app/node_modules/toucan-js/dist/index.esm.js", false],
    ["/app/src/server/create-app.ts", false],
    ["/app/src/app/pages/home.tsx", false],
    ["/app/node_modules/react-dom/some.css", false],
  ])("%s: %s", (id, expected) => {
    expect(compiledAtStart(id)).toBe(expected);
  });
});
