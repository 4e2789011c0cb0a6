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
    // What cancelling the source answers is no one's to handle: a rejection would go unhandled.
    cancel: (reason) => reader.cancel(reason).catch(() => {}),
  });
  return { stream, count: () => bytes, signal: overflow.signal };
}

/**
 * `source` as a body for fetch(). workerd reports an error in a body it is sending as an uncaught
 * rejection (an exception in Workers Logs) even when the fetch's own failure is handled, so a
 * failed read ends nothing here: it aborts `signal`, which fails the fetch, and the body is left
 * unfinished. Never closed: a closed body would send a cut envelope as if it were whole.
 */
export function sendableBody(source: ReadableStream<Uint8Array>): {
  stream: ReadableStream<Uint8Array>;
  signal: AbortSignal;
} {
  const failed = new AbortController();
  const reader = source.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        // Without a reason of its own: workerd reports an abort reason as uncaught too.
        failed.abort();
      }
    },
    // What cancelling the source answers is no one's to handle: a rejection would go unhandled.
    cancel: (reason) => reader.cancel(reason).catch(() => {}),
  });
  return { stream, signal: failed.signal };
}

/** Gathers the bytes before the first newline, at most `cap` of them. */
function lineGatherer(cap: number) {
  const parts: Uint8Array[] = [];
  let length = 0;
  return {
    /** Takes a chunk (copied): "line" once the newline came, "over" past the cap, else "more". */
    add(chunk: Uint8Array): "line" | "over" | "more" {
      const newline = chunk.indexOf(0x0a);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline);
      length += part.byteLength;
      if (length > cap) return "over";
      parts.push(part.slice());
      return newline === -1 ? "more" : "line";
    },
    text(): string {
      const line = new Uint8Array(length);
      let offset = 0;
      for (const part of parts) {
        line.set(part, offset);
        offset += part.byteLength;
      }
      return new TextDecoder("utf-8", { fatal: true }).decode(line);
    },
  };
}

/**
 * The text before the first newline, reading no further than that (at most `cap` bytes);
 * the whole text when there is no newline; null when the line is longer than `cap`.
 */
export async function readFirstLine(stream: ReadableStream<Uint8Array>, cap: number): Promise<string | null> {
  const reader = stream.getReader();
  const line = lineGatherer(cap);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const state = line.add(value);
      if (state === "over") return null;
      if (state === "line") break;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return line.text();
}

/** Gzip bytes given to the inflater at a time: deflate expands at most 1032:1, so 64 make <= 66 KiB. */
const INFLATE_SLICE_BYTES = 64;
/** Room for one read of inflated text: more than a slice can make, so none of it waits in the inflater. */
const INFLATE_READ_BYTES = 128 * 1024;
/** Gzip read for the line beyond `cap`: its own header and trailer, and deflate's block headers. */
const GZIP_FRAMING_BYTES = 1024;

/**
 * readFirstLine for a gzip body, inflating no more than the line needs. workerd's
 * DecompressionStream inflates all of each chunk it is given before anything reads it, so one
 * 64 KiB chunk of a gzip bomb would take 64 MiB at once. Here the gzip goes in small slices,
 * what they make is read out as it comes, and both stop at the newline, or once the inflated
 * line or the gzip read for it is over `cap` (then null).
 */
export async function readInflatedFirstLine(
  gzipped: ReadableStream<Uint8Array>,
  cap: number,
): Promise<string | null> {
  // The cast: the DOM lib and workers types disagree on DecompressionStream's chunk type.
  const inflater = new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>;
  const input = gzipped.getReader();
  const writer = inflater.writable.getWriter();
  const output = inflater.readable.getReader({ mode: "byob" });
  const line = lineGatherer(cap);
  let stopped = false;

  async function feed(): Promise<"fed" | "over"> {
    let fed = 0;
    for (;;) {
      const { done, value } = await input.read();
      if (stopped) return "fed";
      if (done) {
        await writer.close();
        return "fed";
      }
      for (let at = 0; at < value.byteLength && !stopped; at += INFLATE_SLICE_BYTES) {
        const slice = value.subarray(at, at + INFLATE_SLICE_BYTES);
        fed += slice.byteLength;
        if (fed > cap + GZIP_FRAMING_BYTES) return "over";
        await writer.write(slice);
      }
    }
  }

  async function take(): Promise<"line" | "over" | "end"> {
    let buffer = new ArrayBuffer(INFLATE_READ_BYTES);
    for (;;) {
      const { done, value } = await output.read(new Uint8Array(buffer));
      if (done || !value) return "end";
      const state = line.add(value);
      if (state !== "more") return state;
      buffer = value.buffer;
    }
  }

  const taking = take();
  const feeding = feed();
  try {
    const outcome = await Promise.race([taking, feeding.then((fed) => (fed === "over" ? fed : taking))]);
    return outcome === "over" ? null : line.text();
  } finally {
    stopped = true;
    taking.catch(() => {});
    feeding.catch(() => {});
    input.cancel().catch(() => {});
    output.cancel().catch(() => {});
    writer.abort().catch(() => {});
  }
}
