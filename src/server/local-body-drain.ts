// Under the local servers only (`npm run dev`, `npm run preview`: dev.ts): a request body the app
// leaves unread or cancels is read and dropped behind its answer, which stays open until then.
// Vite's server hands each request to workerd over one of a pool of connections, streaming the
// body on; a body workerd stops reading breaks that connection mid-upload, and the request on it
// (and the next one sent on it) fails with a 500 from Vite (docs/decisions.md, "Refused bodies").
// Deployed, bodies are cancelled.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { underLocalServer } from "./dev";

/** How much of a body is read and dropped at most before the rest is cut off after all. */
const MAX_DROPPED_BYTES = 64 * 1024 * 1024;
/** How long a sender may pause before the rest of its body is cut off after all. */
const IDLE_MS = 500;

/** The next read of `reader`, or "idle" when nothing comes for IDLE_MS. */
async function nextOrIdle(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<"idle">((resolve) => (timer = setTimeout(resolve, IDLE_MS, "idle")));
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

interface Drainable {
  /** The body the app reads: the request's own, passed through. */
  body: ReadableStream<Uint8Array>;
  /** Reads and drops whatever the app left of the body; settles when it ends or is cut off. */
  drain: () => Promise<void>;
}

/** `source` passed through; what the app cancels or leaves is read and dropped by `drain()`. */
function drainable(source: ReadableStream<Uint8Array>): Drainable {
  const reader = source.getReader();
  let draining: Promise<void> | undefined;
  const drain = () =>
    (draining ??= (async () => {
      let dropped = 0;
      try {
        for (;;) {
          const next = await nextOrIdle(reader);
          if (next === "idle") break;
          if (next.done) return;
          dropped += next.value.byteLength;
          if (dropped > MAX_DROPPED_BYTES) break;
        }
      } catch {
        return; // the sender left
      }
      await reader.cancel().catch(() => {});
    })());
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (draining) return controller.close();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        void drain();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, drain };
}

/** `response` whose body ends only once `drain()` settles (a body-less one waits for it first). */
async function endingAfter(response: Response, drain: () => Promise<void>): Promise<Response> {
  if (response.body === null) {
    await drain();
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>({ flush: drain });
  void response.body.pipeTo(writable).catch(() => {});
  return new Response(readable, response);
}

/**
 * The middleware, first of all: under a local server, a request with a body gets it passed
 * through, and its answer ends after the rest is read. A sender that stops short of what it
 * declared gets the head of its answer at once, and its end once it has paused for IDLE_MS.
 */
export function localBodyDrain(): MiddlewareHandler<AppEnv> {
  return async function drainLeftBody(c, next) {
    const original = c.req.raw;
    if (!underLocalServer(c) || original.body === null) return next();
    const { body, drain } = drainable(original.body);
    // duplex: a streamed request body, as fetch requires for one.
    c.req.raw = new Request(original, { body, duplex: "half" } as RequestInit);
    await next();
    c.res = await endingAfter(c.res, drain);
  };
}
