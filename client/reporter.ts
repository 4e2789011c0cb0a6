// The browser error reporter's first-paint stub: catches errors and hands them to the
// reporter proper (client/envelope.ts), loaded only when there is something to send.
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

addEventListener("error", (event: ErrorEvent) => report(event.error ?? event.message, "onerror"));
addEventListener("unhandledrejection", (event: PromiseRejectionEvent) =>
  report(event.reason, "onunhandledrejection"),
);
