// The TextEncoder React's edge renderer is given (src/react-dom-server-edge.cjs). CommonJS, like
// the file that installs it; types in text-encoder.d.cts.
"use strict";

/** The runtime's encoder, taken when this module first runs (before React's is swapped in). */
const NativeTextEncoder = globalThis.TextEncoder;

/** Longest string copied in JavaScript; V8 keeps typed arrays up to 64 bytes on its own heap. */
const MAX_COPIED = 64;

/**
 * React's edge renderer turns every dynamic string of a page (each attribute name and value,
 * each text) into bytes with a TextEncoder.encode() call of its own: in workerd a call into the
 * runtime and a new ArrayBuffer each, about 0.1 ms of a small page (BENCHMARKS.md, performance
 * pass 5). This encoder copies short ASCII strings, most of them, into a small Uint8Array in
 * JavaScript and hands anything else to the runtime's encoder. The bytes are the same: ASCII is
 * its own UTF-8.
 */
class AsciiFirstTextEncoder {
  constructor() {
    const native = new NativeTextEncoder();
    this.encoding = native.encoding;
    this.encode = (text) => {
      if (typeof text !== "string" || text.length > MAX_COPIED) return native.encode(text);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code > 0x7f) return native.encode(text);
        bytes[i] = code;
      }
      return bytes;
    };
  }
}

module.exports = { AsciiFirstTextEncoder, MAX_COPIED };
