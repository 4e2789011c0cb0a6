// The browser's reporter proper, loaded on demand by client/reporter.ts: dedupes and caps
// reports, writes each as a Sentry envelope (type, message, stack frames) cut to size as
// Sentry's SDK cuts it, posts it to the relay, and backs off when told to (429, X-Sentry-Rate-Limits).
import { PAGE_DATA_SCRIPT_ID, type PageData, type ReporterConfig, STATUS } from "../src/shared/protocol";
import { RETRY_AFTER_HEADER, SENTRY_RATE_LIMITS_HEADER } from "../src/shared/sentry-headers";

/** At most this many reports per page view. */
export const MAX_REPORTS = 10;

/**
 * The longest string value sent (message, type, URL, digest). Sentry's SDK cuts values at its
 * `maxValueLength` option (@sentry/core utils/prepareEvent.ts, applyClientOptions); since 10.23
 * it has no default (it was 250) and Relay cuts instead, keeping 8192 characters of an
 * exception's value (relay-event-schema protocol/exception.rs): cutting there loses nothing
 * Sentry would show, and bounds what a 200 KB message costs to send.
 */
const MAX_VALUE_LENGTH = 8192;
/** Frames kept, the innermost (@sentry/core utils/stacktrace.ts, STACKTRACE_FRAME_LIMIT). */
const MAX_FRAMES = 50;
/**
 * Stack lines are cut to this before parsing, as @sentry/core's createStackParser does: the frame
 * patterns backtrack, so a long crafted line would cost time quadratic in its length.
 */
const MAX_LINE_LENGTH = 1024;

/** @sentry/core's truncate() (utils/string.ts): the first `max` characters, then "...". */
const truncate = (value: string, max = MAX_VALUE_LENGTH) =>
  value.length <= max ? value : `${value.slice(0, max)}...`;

const page = JSON.parse(document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "{}") as PageData;
const seen = new Set<unknown>();
let sent = 0;
/** Set from a 429 or X-Sentry-Rate-Limits answer: nothing is sent before this time (ms). */
let blockedUntil = 0;

export async function report(error: unknown, mechanism: string): Promise<void> {
  if (!page.reporter || sent >= MAX_REPORTS || Date.now() < blockedUntil) return;
  const key =
    error instanceof Error
      ? `${error.name}:${error.message}:${error.stack?.split("\n", 2)[1]}`
      : String(error);
  if (seen.has(error) || seen.has(key)) return;
  seen.add(error).add(key);
  sent++;
  const retryAfterSeconds = await sendEvent(page.reporter, error, mechanism, page.build);
  if (retryAfterSeconds > 0) blockedUntil = Date.now() + retryAfterSeconds * 1000;
}

interface Frame {
  function?: string;
  filename: string;
  lineno: number;
  colno: number;
  in_app: boolean;
}

// V8: "    at fn (url:1:2)" or "    at url:1:2"; Firefox and Safari: "fn@url:1:2".
const V8_FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;
const GECKO_FRAME = /^(.*?)@(.+?):(\d+):(\d+)$/;

/** Stack frames in Sentry's order: the outermost call first, the throwing frame last. */
export function parseStack(stack: string | undefined): Frame[] {
  const frames: Frame[] = [];
  for (const whole of (stack ?? "").split("\n")) {
    if (frames.length >= MAX_FRAMES) break;
    const line = whole.slice(0, MAX_LINE_LENGTH);
    const match = V8_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!match) continue;
    const [, fn, filename = "", lineno, colno] = match;
    frames.push({
      ...(fn ? { function: fn } : {}),
      filename,
      lineno: Number(lineno),
      colno: Number(colno),
      in_app: filename.startsWith(location.origin),
    });
  }
  return frames.reverse();
}

/**
 * Sentry's `debug_meta` for the files in `frames`: each chunk registers its debug ID under a stack
 * captured inside it (scripts/debug-ids.mjs), whose innermost frame names the file, as @sentry/core
 * reads them (applyDebugIds, applyDebugMeta). With it Sentry finds each file's uploaded source map.
 */
function debugMeta(frames: Frame[]) {
  const registered = (globalThis as { _sentryDebugIds?: Record<string, string> })._sentryDebugIds ?? {};
  const idOf = new Map<string, string>();
  for (const [stack, id] of Object.entries(registered)) {
    const file = parseStack(stack).at(-1)?.filename;
    if (file) idOf.set(file, id);
  }
  const files = new Set(frames.map((frame) => frame.filename).filter((file) => idOf.has(file)));
  const images = [...files].map((file) => ({ type: "sourcemap", code_file: file, debug_id: idOf.get(file) }));
  return images.length > 0 ? { debug_meta: { images } } : {};
}

function exceptionOf(error: unknown, frames: Frame[], mechanism: string) {
  const isError = error instanceof Error;
  return {
    type: truncate(isError ? error.name : "Error"),
    value: truncate(isError ? error.message : String(error)),
    ...(frames.length > 0 ? { stacktrace: { frames } } : {}),
    mechanism: { type: mechanism, handled: mechanism === "react" },
  };
}

/** The envelope: header line, one event item (with its byte length), newline-terminated. */
export function writeEnvelope(dsn: string, error: unknown, mechanism: string, release?: string): string {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const sdk = { name: "verge.reporter", version: "1.0.0" };
  const digest = (error as { digest?: unknown } | null)?.digest;
  const frames = error instanceof Error ? parseStack(error.stack) : [];
  const event = JSON.stringify({
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: "javascript",
    level: "error",
    release,
    sdk,
    request: { url: truncate(location.href), headers: { "User-Agent": navigator.userAgent } },
    exception: { values: [exceptionOf(error, frames, mechanism)] },
    ...debugMeta(frames),
    ...(typeof digest === "string" ? { tags: { digest: truncate(digest) } } : {}),
  });
  const header = JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString(), dsn, sdk });
  const length = new TextEncoder().encode(event).length;
  return `${header}\n${JSON.stringify({ type: "event", length })}\n${event}\n`;
}

/** Seconds to stop sending error events, from a 429 or X-Sentry-Rate-Limits (0: none). */
export function backoffSeconds(response: Response): number {
  const limits = response.headers.get(SENTRY_RATE_LIMITS_HEADER);
  let seconds = 0;
  // "retry_after:categories:scope, ..."; no categories means every category.
  for (const entry of limits ? limits.split(",") : []) {
    const [after, categories = ""] = entry.trim().split(":");
    const applies = categories === "" || categories.split(";").some((c) => c === "error" || c === "default");
    if (applies) seconds = Math.max(seconds, Number(after) || 60);
  }
  if (seconds === 0 && response.status === STATUS.tooManyRequests) {
    seconds = Number(response.headers.get(RETRY_AFTER_HEADER)) || 60;
  }
  return seconds;
}

/**
 * A browser refuses a keepalive request (a network error) once the bodies of the keepalive
 * requests in flight pass 64 KiB (the Fetch standard, HTTP-network-or-cache fetch). Sentry's
 * fetch transport (@sentry/browser transports/fetch.ts) asks for keepalive only while they stay
 * within 60 000 bytes and fewer than 15 requests; so does this, counting bytes, not characters.
 */
const KEEPALIVE_BUDGET_BYTES = 60_000;
const KEEPALIVE_MAX_REQUESTS = 15;
let pendingBytes = 0;
let pendingRequests = 0;

export async function sendEvent(
  config: ReporterConfig,
  error: unknown,
  mechanism: string,
  release?: string,
): Promise<number> {
  const body = new TextEncoder().encode(writeEnvelope(config.dsn, error, mechanism, release));
  pendingBytes += body.length;
  pendingRequests++;
  const send = (keepalive: boolean) =>
    fetch(config.tunnel, {
      method: "POST",
      // text/plain keeps it a simple request; keepalive lets it outlive an unloading page.
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
      body,
      keepalive,
    });
  const keepalive = pendingBytes <= KEEPALIVE_BUDGET_BYTES && pendingRequests < KEEPALIVE_MAX_REQUESTS;
  try {
    // Refused as over the browser's budget (its count and ours can differ), it goes without.
    const response = await send(keepalive).catch((error: unknown) => {
      if (keepalive) return send(false);
      throw error;
    });
    // The browser counts a keepalive request as in flight until its answer is read to the end:
    // only then does it leave our count too.
    await response.arrayBuffer().catch(() => {});
    return backoffSeconds(response);
  } finally {
    pendingBytes -= body.length;
    pendingRequests--;
  }
}
