// The browser error reporter's first-paint stub: catches errors and hands them to the
// reporter proper (client/report-envelope.ts), loaded only when there is something to send.
import { PAGE_DATA_SCRIPT_ID } from "../src/shared/protocol";

// The page data has a `reporter` key only when the server has a DSN: a cheap test here
// (the reporter proper parses the page data); without it nothing is ever loaded.
const enabled = document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent?.includes('"reporter":');

/** Sends `error` to Sentry through the relay; `mechanism` says how it was caught. */
export function report(error: unknown, mechanism: string): void {
  // Reporting must never cause an error of its own (nor report itself).
  if (enabled)
    import("./report-envelope").then((reporter) => reporter.report(error, mechanism)).catch(() => {});
}

/**
 * hydrateRoot options. React only logs errors an error boundary caught; uncaught and
 * recoverable ones (hydration mismatches: reported, never shown) it passes to the global
 * reportError(), which fires window's "error" event below.
 */
export const reactErrorHandlers = {
  onCaughtError(error: unknown) {
    console.error(error); // as React does by default: the fallback text points at the console
    report(error, "react");
  },
};

/**
 * A view transition the browser skipped: another transition began (the page's own, during a
 * navigation), the document went hidden, or the next document did not opt in. The page changed
 * all the same; the browser rejects the transition's promises, which React passes to
 * reportError() or leaves unhandled (an `AbortError` or `InvalidStateError` about the transition).
 * Not an error of the page: neither logged nor reported.
 */
const skippedTransition = (error: unknown) =>
  error instanceof DOMException && /transition/i.test(error.message);

function caught(event: ErrorEvent | PromiseRejectionEvent, error: unknown, mechanism: string) {
  if (skippedTransition(error)) event.preventDefault();
  else report(error, mechanism);
}

addEventListener("error", (event: ErrorEvent) => caught(event, event.error ?? event.message, "onerror"));
addEventListener("unhandledrejection", (event: PromiseRejectionEvent) =>
  caught(event, event.reason, "onunhandledrejection"),
);
