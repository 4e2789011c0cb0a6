// The page cache's nonce splices: a render streamed to its visitor with the visitor's nonce,
// however its chunks split the nonce it was rendered under; an entry's offsets, only where the
// placeholder stands.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nonceAttributeOffsets, spliceAt, streamSplicer } from "../../src/server/nonce-splice";

const RENDERED = "Q2FjaGVkUmVuZGVyTm9uY2Ux";
const SENT = "VmlzaXRvcnNPd25Ob25jZTAw";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text` cut at `cuts` (byte offsets), passed through a splicer, joined again. */
function streamed(text: string, cuts: number[]): { out: string; chunks: Uint8Array<ArrayBuffer>[] } {
  const bytes = encoder.encode(text);
  const bounds = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort(
    (a, b) => a - b,
  );
  const chunks = bounds.slice(1).map((end, i) => bytes.slice(bounds[i], end));
  const splicer = streamSplicer(RENDERED, SENT);
  const parts = chunks.map((chunk) => splicer.push(chunk));
  const rest = splicer.end();
  if (rest) parts.push(rest);
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return { out: decoder.decode(out), chunks };
}

const page = fc
  .array(fc.oneof(fc.string(), fc.constant(RENDERED), fc.constant(RENDERED.slice(0, 5)), fc.constant("é€😀")))
  .map((parts) => parts.join(""));

describe("a render streamed to its visitor", () => {
  it("carries the visitor's nonce wherever the rendered one stood, however it is cut", () => {
    fc.assert(
      fc.property(page, fc.array(fc.nat(), { maxLength: 40 }), (text, cuts) => {
        expect(streamed(text, cuts).out).toBe(text.replaceAll(RENDERED, SENT));
      }),
    );
  });

  it("leaves the chunks it was given as rendered, for the cache to keep", () => {
    const text = `<script nonce="${RENDERED}">go()</script>`;
    const { chunks } = streamed(text, [20, 24]);
    expect(decoder.decode(Buffer.concat(chunks))).toBe(text);
  });
});

describe("a stored document's offsets", () => {
  it("are those of whole nonce attributes, and none if the nonce shows anywhere else", () => {
    const html = `<link nonce="${RENDERED}"/><script nonce="${RENDERED}"></script>`;
    expect(nonceAttributeOffsets(encoder.encode(html), RENDERED)).toEqual([
      html.indexOf(RENDERED),
      html.lastIndexOf(RENDERED),
    ]);
    expect(nonceAttributeOffsets(encoder.encode(`${html}<p>${RENDERED}</p>`), RENDERED)).toBeNull();
    expect(nonceAttributeOffsets(encoder.encode(`<p data-x="${RENDERED}"></p>`), RENDERED)).toBeNull();
  });

  it("take the new nonce only where the placeholder stands", () => {
    const html = encoder.encode(`<script nonce="${RENDERED}"></script>`);
    const offsets = nonceAttributeOffsets(html, RENDERED)!;
    expect(spliceAt(html.slice(), [offsets[0]! + 1], RENDERED, SENT)).toBe(false);
    const served = html.slice();
    expect(spliceAt(served, offsets, RENDERED, SENT)).toBe(true);
    expect(decoder.decode(served)).toBe(`<script nonce="${SENT}"></script>`);
  });
});
