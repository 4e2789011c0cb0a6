// Reading a streamed envelope without buffering it: byte counting with a cap, and its first line.

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body over ${limit} bytes`);
    this.name = "TooLargeError";
  }
}

/**
 * `body`, counting its bytes; errors once more than `limit` went by. Pull-based rather
 * than a pipe, so an overflow is one error on this stream and nothing left unhandled.
 */
export function countedBody(
  body: ReadableStream<Uint8Array>,
  limit: number,
): {
  stream: ReadableStream<Uint8Array>;
  count(): number;
  /** Aborted when the limit is passed, so a request already streaming the body stops too. */
  signal: AbortSignal;
} {
  let bytes = 0;
  const overflow = new AbortController();
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      bytes += value.byteLength;
      if (bytes <= limit) return controller.enqueue(value);
      overflow.abort();
      reader.cancel().catch(() => {});
      controller.error(new TooLargeError(limit));
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, count: () => bytes, signal: overflow.signal };
}

/**
 * The text before the first newline, reading no further than that (at most `cap` bytes);
 * the whole text when there is no newline; null when the line is longer than `cap`.
 */
export async function readFirstLine(stream: ReadableStream<Uint8Array>, cap: number): Promise<string | null> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const newline = value.indexOf(0x0a);
      const part = newline === -1 ? value : value.subarray(0, newline);
      parts.push(part);
      length += part.byteLength;
      if (length > cap) return null;
      if (newline !== -1) break;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const line = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    line.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(line);
}
