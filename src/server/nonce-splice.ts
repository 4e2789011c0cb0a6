// Puts a response's CSP nonce where a cacheable document was rendered under another, one never
// sent to anyone (page-cache.ts): wherever it occurs in a render streaming to its visitor, and at
// the byte offsets recorded in a stored entry. Both nonces are ASCII and of one length, so a
// splice moves no byte and a stored entry's offsets hold for every visitor.

const encoder = new TextEncoder();
const ATTRIBUTE_OPEN = encoder.encode('nonce="');
const QUOTE = ATTRIBUTE_OPEN.at(-1)!;

/** Whether `bytes` holds `needle` at `at`. */
function holds(bytes: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at < 0 || at + needle.length > bytes.length) return false;
  for (let i = 0; i < needle.length; i++) if (bytes[at + i] !== needle[i]) return false;
  return true;
}

/** Every offset of `needle` in `bytes` (native search for its first byte, then a compare). */
function offsetsOf(bytes: Uint8Array, needle: Uint8Array): number[] {
  const found: number[] = [];
  for (let at = bytes.indexOf(needle[0]!); at >= 0; at = bytes.indexOf(needle[0]!, at + 1)) {
    if (holds(bytes, needle, at)) found.push(at);
  }
  return found;
}

/**
 * The offsets of `nonce` in a rendered document, or null if any of them is not a whole
 * `nonce="…"` attribute value: then the document shows its nonce elsewhere (as text, say), and
 * a splice there would hand the next visitor's nonce to whoever reads that text.
 */
export function nonceAttributeOffsets(bytes: Uint8Array, nonce: string): number[] | null {
  const needle = encoder.encode(nonce);
  const found = offsetsOf(bytes, needle);
  const attribute = (at: number) =>
    holds(bytes, ATTRIBUTE_OPEN, at - ATTRIBUTE_OPEN.length) && bytes[at + needle.length] === QUOTE;
  return found.every(attribute) ? found : null;
}

/**
 * Writes `nonce` over `placeholder` at each of `offsets` in `bytes`, in place. False, and
 * `bytes` untouched, unless every offset holds the placeholder: nothing else is ever overwritten.
 */
export function spliceAt(bytes: Uint8Array, offsets: number[], placeholder: string, nonce: string): boolean {
  const from = encoder.encode(placeholder);
  const to = encoder.encode(nonce);
  if (to.length !== from.length || !offsets.every((at) => holds(bytes, from, at))) return false;
  for (const at of offsets) bytes.set(to, at);
  return true;
}

/**
 * Replaces `from` by `to` in a stream of chunks, chunk by chunk. A chunk's tail that could begin
 * `from` is held until the next chunk tells (a render's chunks split text anywhere); the chunk
 * that holds a match is copied, never changed: the page cache keeps the chunks as rendered.
 */
export function streamSplicer(from: string, to: string) {
  const needle = encoder.encode(from);
  const replacement = encoder.encode(to);
  let held: Uint8Array | null = null;
  /** The length of the longest tail of `bytes` that is a proper start of `needle`. */
  const partial = (bytes: Uint8Array) => {
    for (let start = Math.max(0, bytes.length - needle.length + 1); start < bytes.length; start++) {
      if (holds(needle, bytes.subarray(start), 0)) return bytes.length - start;
    }
    return 0;
  };
  return {
    /** What of `chunk` (after anything held) can be sent now. */
    push(chunk: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
      let bytes = chunk;
      if (held) {
        bytes = new Uint8Array(held.length + chunk.length);
        bytes.set(held);
        bytes.set(chunk, held.length);
      }
      const found = offsetsOf(bytes, needle);
      if (found.length > 0) {
        if (!held) bytes = bytes.slice();
        for (const at of found) bytes.set(replacement, at);
      }
      const keep = partial(bytes);
      held = keep > 0 ? bytes.slice(bytes.length - keep) : null;
      return keep > 0 ? bytes.subarray(0, bytes.length - keep) : bytes;
    },
    /** What was held at the end of the stream (it did not begin `from` after all). */
    end(): Uint8Array<ArrayBuffer> | null {
      const rest = held;
      held = null;
      return rest as Uint8Array<ArrayBuffer> | null;
    },
  };
}
