// A shell's answer: its prelude at once, then the holes as React resumes them with the visitor's
// data, in the same response; a resume React gives up on ends the document with a digest.
import { resume } from "react-dom/server";
import type { PostponedState } from "react-dom/static";
import { DEFERRED_ATTR, VISITOR_KEY, type DeferredMarker } from "../shared/protocol";
import {
  isDeferredMarker,
  settledDeferred,
  writtenAhead,
  type DeferredPromise,
  type Settled,
} from "../shared/await";
import { mounted, type ResolvedRoute } from "./load-page";
import { scriptSafeJson } from "../shared/serialize";
import type { AppContext } from "./context";
import { documentTree, renderDeadline } from "./document";
import { answerHeaders, requestNonce } from "./headers";
import { htmlResponse } from "./respond";
import { logWhenSettled } from "./logger";
import { timed } from "./timings";
import { splitDeferred } from "./deferred";
import type { Shell } from "./stored-shell";
import { doesNotFit } from "./react-couplings";

/**
 * The answer: the shell at once, then the holes as React resumes them with the visitor's data,
 * under the response's nonce. A stored shell reaches here only once its state has been read
 * (storedShell()), so React is given what it wrote; should it still fail to resume (a state of the
 * right shape that does not fit the tree), the holes are ended in place with the failure's digest
 * (resumeFailed()), as a hole that throws is, and the shell is forgotten: the next visitor gets
 * a fresh render, not the same failure for the entry's life.
 */
export function resumed(
  c: AppContext,
  route: ResolvedRoute,
  shell: Shell,
  visitor: Promise<unknown>,
): Response {
  const { module } = route;
  const headers = answerHeaders("html", module, shell.page.status);
  if (shell.postponed === null)
    return htmlResponse(new Blob([shell.prelude]).stream(), shell.page.status, headers);
  const nonce = requestNonce(c);
  const capture = c.get("capture");
  const { postponed } = shell;
  let forget = shell.forget;
  const unfit = () => {
    forget?.();
    forget = undefined;
  };
  const start = holesStart();
  const holes = start.begun.then(async () => {
    const hole = splitDeferred(c, { [VISITOR_KEY]: visitor });
    const live = (hole.live as Record<string, DeferredPromise>)[VISITOR_KEY]!;
    const deadline = renderDeadline(c, hole.settled);
    try {
      // React resumes the holes once the value is in, each in one go: settled, it is read at
      // once, where a pending one suspends every hole and pings each again. The value always
      // settles (by its deadline at the latest).
      const settled = await Promise.race([live, start.left]);
      if (settled === undefined) {
        deadline.done();
        return { lead: "", stream: ended() };
      }
      const value = settledDeferred(VISITOR_KEY, settled);
      // Every hole reads the visitor's value: it goes out once, ahead of them, and none has a
      // script of its own (a page of 20 delete buttons is 20 holes).
      writtenAhead(value);
      const data = withLiveDeferred(shell.page.data);
      const page = { ...shell.page, data, visitor: value as unknown as DeferredMarker };
      // The embedded page data is in the prelude already: resume renders only the way to the holes.
      const tree = documentTree(c, { module, layouts: mounted(route) }, page, nonce, "");
      const state = typeof postponed === "string" ? (JSON.parse(postponed) as PostponedState) : postponed;
      const stream = await timed(c, "resume", () =>
        resume(tree, state, {
          nonce,
          signal: deadline.signal,
          onError: (error) => {
            if (c.req.raw.signal.aborted) return undefined;
            if (doesNotFit(error)) unfit();
            return capture(error);
          },
        }),
      );
      stream.allReady.then(deadline.done, deadline.done);
      return { lead: deferredScript(VISITOR_KEY, settled, nonce), stream };
    } catch (error) {
      deadline.done();
      throw error;
    }
  });
  logWhenSettled(
    c.get("log"),
    holes.then(({ stream }) => stream.allReady).catch(() => {}),
  );
  const failed = (error: unknown) => {
    unfit();
    return resumeFailed(capture(error), nonce);
  };
  return htmlResponse(prefixed(shell.prelude, start, holes, failed), shell.page.status, headers);
}

/**
 * The shell's data with each deferred value, settled in it as a marker, as a promise fulfilled
 * with it again: a hole that reads one then writes its script, as the browser's render of that
 * hole expects (the embedded page data has the value pending, so the browser reads it there).
 */
function withLiveDeferred(data: unknown): unknown {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return data;
  const live: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const settled = isDeferredMarker(value) ? value.settled : undefined;
    live[key] = settled ? settledDeferred(key, settled) : value;
  }
  return live;
}

/** A stream with nothing in it, done: the holes of an answer cancelled before they were resumed. */
function ended(): ReadableStream<Uint8Array> & { allReady: Promise<void> } {
  const stream = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  return Object.assign(stream, { allReady: Promise.resolve() });
}

/**
 * The end of a document whose holes React could not resume: the visitor's value as an error
 * with `digest`, where the page reads it (a browser renders the holes itself once the document
 * has loaded, and shows the route error view with the digest), then the document's end.
 */
function resumeFailed(digest: string, nonce: string): Uint8Array {
  return new TextEncoder().encode(
    `${deferredScript(VISITOR_KEY, { error: { digest } }, nonce)}</body></html>`,
  );
}

/** The element the browser reads a deferred value from as it hydrates (Await's own, in one place). */
function deferredScript(key: string, settled: Settled<unknown>, nonce: string): string {
  return `<script type="application/json" ${DEFERRED_ATTR}="${key}" nonce="${nonce}">${scriptSafeJson(settled)}</script>`;
}

/**
 * When an answer's holes begin: `begin()` once its prelude is on its way (the first byte waits for
 * nothing only React needs), or `leave()` when the answer is cancelled, which begins them too and
 * settles `left`: what waits on the holes then ends without rendering them.
 */
function holesStart() {
  let begin!: () => void;
  let leave!: () => void;
  const begun = new Promise<void>((resolve) => (begin = resolve));
  const left = new Promise<undefined>(
    (resolve) =>
      (leave = () => {
        resolve(undefined);
        begin();
      }),
  );
  return { begun, left, begin, leave };
}

/**
 * `prefix`, then what `rest` streams once it is ready (its `lead` first), or `failed`'s bytes if
 * it cannot be. `start` begins `rest` in the turn after the prefix is taken, or when the answer
 * is cancelled (so that what waits on `rest` still ends).
 */
function prefixed(
  prefix: Uint8Array<ArrayBuffer>,
  start: Pick<ReturnType<typeof holesStart>, "begin" | "leave">,
  rest: Promise<{ lead: string; stream: ReadableStream<Uint8Array> }>,
  failed: (error: unknown) => Uint8Array,
): ReadableStream<Uint8Array> {
  // Handled here; pull() reads it.
  const ready = rest.then(
    ({ lead, stream }) => ({ reader: stream.getReader(), lead }),
    (error: unknown) => ({ failure: failed(error) }),
  );
  let sentLead = false;
  let sentPrefix = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentPrefix) {
        sentPrefix = true;
        setTimeout(start.begin, 0);
        return controller.enqueue(prefix);
      }
      const next = await ready;
      if ("failure" in next) {
        controller.enqueue(next.failure);
        return controller.close();
      }
      if (!sentLead) {
        sentLead = true;
        return controller.enqueue(new TextEncoder().encode(next.lead));
      }
      const { done, value } = await next.reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: async (reason) => {
      start.leave();
      const next = await ready;
      if ("reader" in next) await next.reader.cancel(reason);
    },
  });
}
