// The browser error reporter's first-paint stub: catches errors, dedupes and caps them, and
// loads the envelope writer (client/envelope.ts) only when there is something to send.
import { PAGE_DATA_SCRIPT_ID, type PageData } from "../src/protocol";
import { isChunkLoadError } from "../src/stale-chunk";

/** At most this many reports per page view. */
export const MAX_REPORTS = 10;

const page = (() => {
  try {
    return JSON.parse(document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "null") as PageData | null;
  } catch {
    return null;
  }
})();
const config = page?.reporter;
const seen = new Set<unknown>();
let sent = 0;
/** Set from a 429 or X-Sentry-Rate-Limits answer: nothing is sent before this time (ms). */
let blockedUntil = 0;

/** Sends `error` to Sentry through the relay; `mechanism` says how it was caught. */
export function report(error: unknown, mechanism: string): void {
  // A failed chunk load is version skew, answered by a full page load: not a bug to report.
  if (!config || sent >= MAX_REPORTS || Date.now() < blockedUntil || isChunkLoadError(error)) return;
  const key =
    error instanceof Error
      ? `${error.name}:${error.message}:${error.stack?.split("\n", 2)[1]}`
      : String(error);
  if (seen.has(error) || seen.has(key)) return;
  seen.add(error).add(key);
  sent++;
  import("./envelope")
    .then(({ sendEvent }) => sendEvent(config, error, mechanism, page?.build))
    .then((retryAfterSeconds) => {
      if (retryAfterSeconds > 0) blockedUntil = Date.now() + retryAfterSeconds * 1000;
    })
    // Reporting must never cause an error of its own (nor report itself).
    .catch(() => {});
}

/** hydrateRoot options: React's caught, uncaught and recoverable (hydration) errors are reported. */
export const reactErrorHandlers = {
  onCaughtError(error: unknown) {
    console.error(error); // what React logs by default: the fallback text points at the console
    report(error, "react.caught");
  },
  onUncaughtError(error: unknown) {
    console.error(error);
    report(error, "react.uncaught");
  },
  onRecoverableError(error: unknown) {
    // Hydration mismatches and other recovered errors: reported, never shown.
    console.warn(error);
    report(error, "react.recoverable");
  },
};

if (config) {
  window.addEventListener("error", (event) => report(event.error ?? event.message, "onerror"));
  window.addEventListener("unhandledrejection", (event) => report(event.reason, "onunhandledrejection"));
}
