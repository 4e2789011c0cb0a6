// Deferred loader values: a top-level promise in a loader's data streams into the HTML later, or
// is awaited for page data. Each settles by a deadline, so every response ends.
import { VISITOR_KEY, type DeferredMarker } from "../shared/protocol";
import { tagDeferred, type Settled } from "../shared/await";
import type { AppContext } from "./context";
import { timedUntil } from "./timings";

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

/** How long a deferred value or a suspended render may stay pending (DEFERRED_TIMEOUT_MS overrides it). */
export const DEFAULT_DEFERRED_TIMEOUT_MS = 10_000;

/** What a deferred value or a render that missed its deadline settles with: an error, with a digest. */
export class DeferredTimeoutError extends Error {
  override name = "DeferredTimeoutError";
}

export function deferredTimeout(env: { DEFERRED_TIMEOUT_MS?: string }): number {
  return Number(env.DEFERRED_TIMEOUT_MS) || DEFAULT_DEFERRED_TIMEOUT_MS;
}

export interface Deferred {
  /** The data for rendering: deferred values as tagged, settled promises. */
  live: unknown;
  /** The data for the embedded page data: deferred values as markers. */
  json: unknown;
  /** Settles once every deferred value has (each by its deadline at the latest). */
  settled: Promise<unknown>;
}

const none = (data: unknown): Deferred => ({ live: data, json: data, settled: Promise.resolve() });

/**
 * Splits a loader's top-level promises out of its data: `live` holds settled, tagged
 * promises for rendering; `json` holds markers in their place for the embedded page data.
 * A rejection is captured (the request's log line, Sentry) and settles to its digest; so does
 * a value still pending after DEFERRED_TIMEOUT_MS. Pages without deferred values pay for no timer.
 */
export function splitDeferred(c: AppContext, data: unknown): Deferred {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return none(data);
  const entries = Object.entries(data);
  if (!entries.some(([, value]) => isThenable(value))) return none(data);
  const capture = c.get("capture");
  const timeoutMs = deferredTimeout(c.env);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeferredTimeoutError(`Deferred loader data did not settle within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const live: Record<string, unknown> = {};
  const json: Record<string, unknown> = {};
  const pending: Promise<unknown>[] = [];
  for (const [key, value] of entries) {
    if (isThenable(value)) {
      const settled: Promise<Settled<unknown>> = Promise.race([value, deadline]).then(
        (resolved) => ({ value: resolved }),
        (error: unknown) => ({ error: { digest: capture(error) } }),
      );
      pending.push(settled);
      // The per-visitor loader has its own phase ("visitor").
      if (key !== VISITOR_KEY) timedUntil(c, `deferred:${key}`, settled);
      live[key] = tagDeferred(key, settled);
      json[key] = { $deferred: key } satisfies DeferredMarker;
    } else {
      live[key] = json[key] = value;
    }
  }
  const settled = Promise.all(pending).then(() => clearTimeout(timer));
  return { live, json, settled };
}

/** For page-data answers: waits for every deferred value, keeping each as a settled marker. */
export async function settleDeferred(c: AppContext, data: unknown): Promise<unknown> {
  const { live, json } = splitDeferred(c, data);
  if (live === json) return data;
  const settled: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(live as Record<string, unknown>)) {
    settled[key] = isThenable(value) ? { $deferred: key, settled: await value } : value;
  }
  return settled;
}

/** Page data's `visitor`: the per-visitor loader's settled data (its error's digest if it threw). */
export async function settledVisitor(
  c: AppContext,
  visitor: Promise<unknown> | undefined,
): Promise<{ visitor?: DeferredMarker }> {
  if (!visitor) return {};
  const settled = (await settleDeferred(c, { [VISITOR_KEY]: visitor })) as Record<string, DeferredMarker>;
  return { visitor: settled[VISITOR_KEY]! };
}
