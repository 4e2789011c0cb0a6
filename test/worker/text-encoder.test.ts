// React's edge renderer encodes every dynamic string through the TextEncoder it was given
// (src/react-dom-server-edge.cjs installs src/text-encoder.cjs): its bytes must be exactly the
// runtime's, for every string, and pages must come out the same.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AsciiFirstTextEncoder, MAX_COPIED } from "../../src/text-encoder.cjs";
import { request } from "./html";

const native = new TextEncoder();
const encoder = new AsciiFirstTextEncoder();

const bytesOf = (array: Uint8Array) => [...array];

describe("the ASCII-first TextEncoder", () => {
  const edges = [
    "",
    "a",
    "a".repeat(MAX_COPIED),
    "a".repeat(MAX_COPIED + 1),
    "\u007f",
    "\u0080",
    "caf\u00e9",
    `${"a".repeat(MAX_COPIED - 1)}\u00e9`,
    "\u2028",
    "\u2615\u{1F680}",
    "\uD800",
    "a\uDC00b",
    '\u0000<tag attr="v">&amp;',
  ];
  for (const text of edges) {
    it(`encodes ${JSON.stringify(text).slice(0, 40)} as the runtime does`, () => {
      const bytes = encoder.encode(text);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(bytesOf(bytes)).toEqual(bytesOf(native.encode(text)));
    });
  }

  it("encodes any string, lone surrogates included, as the runtime does", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary-ascii", maxLength: 2 * MAX_COPIED }),
          fc.string({ unit: "binary", maxLength: 2 * MAX_COPIED }),
          fc.string({ unit: "grapheme", maxLength: 40 }),
          // Mostly ASCII with an occasional other UTF-16 code unit: the fallback at any position.
          fc.string({
            unit: fc.oneof(
              { weight: 9, arbitrary: fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 }) },
              {
                weight: 1,
                arbitrary: fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)),
              },
            ),
            maxLength: 2 * MAX_COPIED,
          }),
        ),
        (text) => {
          expect(bytesOf(encoder.encode(text))).toEqual(bytesOf(native.encode(text)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("says utf-8, and encodes nothing as no bytes", () => {
    expect(encoder.encoding).toBe("utf-8");
    expect(encoder.encode().length).toBe(0);
  });
});

describe("pages rendered through it", () => {
  const texts = [
    "caf\u00e9",
    "caf\u00e9 \u2615\u{1F680}",
    "b".repeat(MAX_COPIED + 10),
    "c".repeat(MAX_COPIED),
  ];
  for (const text of texts) {
    it(`/echo shows ${JSON.stringify(text).slice(0, 30)} in its heading, title and data, as valid UTF-8`, async () => {
      const response = await request(`/echo?text=${encodeURIComponent(text)}`);
      expect(response.status).toBe(200);
      const html = new TextDecoder("utf-8", { fatal: true }).decode(await response.arrayBuffer());
      expect(html).toContain(`<strong data-testid="echo-output">${text}</strong>`);
      expect(html).toContain(`<title>Echo: ${text}</title>`);
      expect(html).toContain(`"text":"${text}"`);
    });
  }
});
