// Where a request's time goes: the edges of its phases, taken once, for its log line, its
// Server-Timing header and, where the runtime traces Workers, its spans.
import type { MiddlewareHandler } from "hono";
import { isRedirect } from "../shared/redirect";
import type { AppContext, AppEnv, Phase, RequestKind, Timings, Tracing } from "./context";
import { HttpError } from "./errors";
import { underLocalServer } from "./dev";
import { rayTiming } from "./vitals";

/** `tracing` if it is the runtime's Workers tracing (cloudflare:workers has it where Workers trace). */
function usable(tracing: unknown): Tracing | null {
  return typeof (tracing as Partial<Tracing> | undefined)?.enterSpan === "function"
    ? (tracing as Tracing)
    : null;
}

const since = (timings: Timings) => performance.now() - timings.start;

function record(timings: Timings, phase: Phase, at: number, ms: number): void {
  const known = timings.phases[phase];
  if (known) known[1] += ms;
  else timings.phases[phase] = [at, ms];
}

/**
 * Runs `run` as `phase` of the request: its two edges are recorded, and where the runtime traces,
 * it is a span with the route, the cache state, where D1 served it and, if it failed, the digest.
 */
export async function timed<T>(c: AppContext, phase: Phase, run: () => T | Promise<T>): Promise<T> {
  const timings = c.get("timings");
  if (!timings) return run();
  const at = since(timings);
  const measured = async () => {
    try {
      return await run();
    } finally {
      record(timings, phase, at, since(timings) - at);
    }
  };
  if (!timings.tracing) return measured();
  return timings.tracing.enterSpan(phase, async (span) => {
    try {
      return await measured();
    } catch (error) {
      // Captured here, for a traced request, only what the answer captures too (the same value
      // gets the same digest); the relay turns its upstream's failures into 502 and 504.
      if (phase !== "relay" && !(error instanceof HttpError) && !isRedirect(error)) {
        span.setAttribute("digest", c.get("capture")(error));
      }
      throw error;
    } finally {
      describeSpan(c, span);
    }
  });
}

/** Records a deferred value's phase (and span) from now until `settled` settles, which never rejects. */
export function timedUntil(c: AppContext, phase: Phase, settled: Promise<unknown>): void {
  void timed(c, phase, () => settled);
}

/** The whole request as a span: its phases nest in it, and it carries the first error's digest. */
async function traced(c: AppContext, span: Span, next: () => Promise<void>): Promise<void> {
  await next();
  if (!span.isTraced) return;
  describeSpan(c, span);
  const digest = c.get("log").errors[0]?.digest;
  if (digest) span.setAttribute("digest", digest);
}

function describeSpan(c: AppContext, span: Span): void {
  const log = c.get("log");
  if (log.route) span.setAttribute("http.route", log.route);
  for (const name of ["cache", "d1_served_by"]) {
    const value = log.fields?.[name];
    if (typeof value === "string") span.setAttribute(name, value);
  }
}

/** Adds one D1 statement: `ms` from D1's meta.duration (or its wall time where D1 gives no meta). */
export function recordD1(c: AppContext, at: number, ms: number, queries = 1): void {
  const timings = c.get("timings");
  if (!timings) return;
  const d1 = (timings.d1 ??= { at: at - timings.start, ms: 0, queries: 0 });
  d1.ms += ms;
  d1.queries += queries;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The log line's `timings`: every phase (D1's too) as [start, ms] from the request's arrival, rounded, by start. */
export function timingsField(timings: Timings): Record<string, [number, number]> {
  const measured = Object.entries(timings.phases) as [string, [number, number]][];
  if (timings.d1) measured.push(["d1", [timings.d1.at, timings.d1.ms]]);
  measured.sort(([, a], [, b]) => a[0] - b[0]);
  const field: Record<string, [number, number]> = {};
  for (const [phase, [at, ms]] of measured) field[phase] = [round(at), round(ms)];
  return field;
}

/**
 * What Server-Timing carries: what is known before the first byte. Not the total, nor deferred
 * values, nor a stored shell's resume (its prelude is sent first).
 */
const HEADER_PHASES: readonly Phase[] = ["match", "cache", "action", "loader", "endpoint", "shell"];
const TIMED_KINDS: ReadonlySet<RequestKind> = new Set(["html", "data", "action", "endpoint"]);
const SERVER_TIMING_HEADER = "Server-Timing";

/** Adds the phases named `<kind>:<name>` to `entries` as `<kind>;dur=ms;desc="<name>"`. */
function named(timings: Timings, kind: "middleware" | "layout", entries: string[]): void {
  for (const [phase, measured] of Object.entries(timings.phases)) {
    if (measured && phase.startsWith(`${kind}:`)) {
      entries.push(`${kind};dur=${round(measured[1])};desc="${phase.slice(kind.length + 1)}"`);
    }
  }
}

/** Server-Timing's value (RFC-style `name;dur=ms;desc="..."` entries). */
function serverTiming(timings: Timings, cache: unknown): string {
  const entries: string[] = [];
  // D1's time follows the code that queried: an endpoint's handler, or else the loaders.
  const queried: Phase = timings.phases.endpoint ? "endpoint" : "loader";
  for (const phase of HEADER_PHASES) {
    const measured = timings.phases[phase];
    const state = phase === "cache" && typeof cache === "string" ? `;desc="${cache}"` : "";
    if (measured) entries.push(`${phase};dur=${round(measured[1])}${state}`);
    else if (state) entries.push(`${phase}${state}`);
    // Each middleware after the match, each layout's loader beside the page's: one entry apiece,
    // named by its kind and described by its name (a metric name cannot hold the colon).
    if (phase === "match" || phase === "loader")
      named(timings, phase === "match" ? "middleware" : "layout", entries);
    if (phase === queried && timings.d1) {
      const { ms, queries } = timings.d1;
      entries.push(`d1;dur=${round(ms)};desc="${queries} ${queries === 1 ? "query" : "queries"}"`);
    }
  }
  return entries.join(", ");
}

/**
 * Whether answers carry Server-Timing: on the local servers (`npm run dev`, `npm run preview`, the
 * tests' servers) and wherever SERVER_TIMING is set. Off in production by default: how long a
 * loader or D1 took can tell a visitor which branch ran (a record that exists, a cache that missed).
 */
function serverTimingOn(c: AppContext): boolean {
  return underLocalServer(c) || Boolean(c.env?.SERVER_TIMING);
}

/**
 * Opens the request's timings, its spans entered through `tracing` where that is the runtime's
 * (feature-detected: none, nothing is traced) and, where it is on, adds Server-Timing to documents,
 * page data and action answers: set on each answer as it leaves, never on what the cache stores.
 */
export function requestTimings(given?: unknown): MiddlewareHandler<AppEnv> {
  const tracing = usable(given);
  return async function requestTimings(c, next) {
    const timings: Timings = { start: performance.now(), phases: {}, tracing: null };
    c.set("timings", timings);
    if (!tracing) await next();
    else
      await tracing.enterSpan("request", (span) => {
        // Spans cost CPU even when nothing records them: phases are spans of sampled requests only.
        if (span.isTraced) timings.tracing = tracing;
        return traced(c, span, next);
      });
    // Read from the context, not through request-kind.ts: that imports the relay, which times its call.
    const kind = c.get("kind")?.kind;
    if (!kind || !TIMED_KINDS.has(kind)) return;
    const entries = serverTimingOn(c) ? [serverTiming(timings, c.get("log").fields?.cache)] : [];
    // Web Vitals name the request a page came from by its ray (src/server/vitals.ts): no duration.
    const ray = kind === "action" || kind === "endpoint" ? null : rayTiming(c);
    if (ray) entries.push(ray);
    const value = entries.filter(Boolean).join(", ");
    if (value) c.res.headers.set(SERVER_TIMING_HEADER, value);
  };
}
