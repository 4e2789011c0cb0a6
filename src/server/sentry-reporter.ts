// Server-side error reporting: the one module that knows about the Sentry SDK (toucan-js).
// To move to @sentry/cloudflare, replace the body of createSentryReporter: the ReportError
// hook it returns is all the app sees (toucan-js is archived upstream; this keeps it swappable).
import { Toucan } from "toucan-js";
import { parseDsn } from "./sentry-dsn";
import type { ErrorReport, ReportError } from "./context";

export interface SentryReporterOptions {
  /** Replaces fetch for sending events (tests). */
  fetcher?: typeof fetch;
  /** Longest wait for an event to be sent; the response never waits (it runs in waitUntil). */
  flushTimeoutMs?: number;
}

/** Request headers worth seeing on an event; cookies and authorization never leave the worker. */
const SENT_HEADERS = [
  "user-agent",
  "referer",
  "accept",
  "accept-language",
  "cf-ray",
  "x-page-data",
  "x-action",
];

/** One Toucan (client and scope) per request, shared by every error the request captures. */
const clients = new WeakMap<Request, Toucan>();

export function createSentryReporter({
  fetcher,
  flushTimeoutMs = 5_000,
}: SentryReporterOptions = {}): ReportError {
  return async function reportToSentry({
    error,
    digest,
    route,
    ray,
    request,
    cron,
    env,
    release,
  }: ErrorReport) {
    if (!parseDsn(env.SENTRY_DSN)) return; // no DSN: nothing is sent (the log line still is)
    // A scheduled run has no request: a client of its own for each report.
    let sentry = request && clients.get(request);
    if (!sentry) {
      sentry = new Toucan({
        dsn: env.SENTRY_DSN,
        release,
        request,
        requestDataOptions: {
          allowedHeaders: SENT_HEADERS,
          allowedCookies: false,
          // The visitor's address only if the operator turns it on (SENTRY_SEND_IP), as the relay.
          allowedIps: Boolean(env.SENTRY_SEND_IP),
        },
        transportOptions: fetcher ? { fetcher } : undefined,
      });
      if (request) clients.set(request, sentry);
    }
    const tags = { digest, route: route ?? "(none)", ray, ...(cron === undefined ? {} : { cron }) };
    sentry.captureException(error, { captureContext: { tags } });
    // The app's capture() already holds this promise in ctx.waitUntil: no response waits on it.
    await sentry.getClient()?.flush(flushTimeoutMs);
  };
}

/** The default reportError hook. */
export const reportToSentry: ReportError = createSentryReporter();
