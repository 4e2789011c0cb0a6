// React's Node build sizes what it writes with Buffer.byteLength; verge/vite's build gives it a
// count in JavaScript instead (src/vite/renderer.ts). React sends a boundary apart by that size,
// so the count must be the bytes React writes, exactly: TextEncoder's, as Buffer's.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BYTE_LENGTH_CALL, UTF8_LENGTH } from "../../src/vite/renderer";

const utf8Length = new Function(`${UTF8_LENGTH}\nreturn verge$utf8Length;`)() as (text: string) => number;
const encoded = (text: string) => new TextEncoder().encode(text).length;

describe("the build's UTF-8 byte count", () => {
  it.each([
    ["nothing", ""],
    ["ASCII", '<div class="row">1 &amp; 2</div>'],
    ["a control character and DEL", "\u0000\u007f"],
    ["two-byte characters", "café, Ærøskøbing, ©"],
    ["three-byte characters", "日本語のテキスト €"],
    ["a surrogate pair", "rows 🎉 done"],
    ["pairs back to back", "👩‍👩‍👧🏳️‍🌈"],
    ["a lone high surrogate at the end", "end \ud83d"],
    ["a lone high surrogate before ASCII", "\ud83d then"],
    ["a lone low surrogate", "x\ude00y"],
    ["two high surrogates, then a low one", "\ud83d\ud83d\ude00"],
    ["the first characters past each width", "\u0080\u0800\u{10000}\uffff"],
  ])("counts %s as TextEncoder and Buffer.byteLength do", (_, text) => {
    expect(utf8Length(text)).toBe(encoded(text));
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, "utf8"));
  });

  it("counts any string as TextEncoder does", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        (text) => utf8Length(text) === encoded(text),
      ),
      { numRuns: 2000 },
    );
    // Lone surrogates among the rest (fast-check's "binary" units are whole code points).
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }),
      fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 50 }), (units) => {
        const text = String.fromCharCode(...units);
        return utf8Length(text) === encoded(text) && utf8Length(text) === Buffer.byteLength(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("replaces the one call React's Node build makes", () => {
    // A React that counts otherwise keeps Buffer.byteLength (nothing breaks, the first render
    // loads node:buffer again): update BYTE_LENGTH_CALL in src/vite/renderer.ts.
    const reactDom = path.dirname(createRequire(import.meta.url).resolve("react-dom/package.json"));
    const react = readFileSync(path.join(reactDom, "cjs/react-dom-server.node.production.js"), "utf8");
    expect(react.split(BYTE_LENGTH_CALL).length - 1, `${BYTE_LENGTH_CALL} in React's Node build`).toBe(1);
    expect(react.match(/\bBuffer\.\w+/g)).toEqual(["Buffer.byteLength"]);
  });
});
