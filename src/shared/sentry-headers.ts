// Sentry's HTTP headers that the relay and the browser reporter share (the protocol's Sentry part).

/** Sentry's rate-limit answer header, passed back by the relay so the browser reporter backs off. */
export const SENTRY_RATE_LIMITS_HEADER = "X-Sentry-Rate-Limits";
export const RETRY_AFTER_HEADER = "Retry-After";
/** The visitor's IP, sent upstream by the relay (Sentry reads it instead of the worker's). */
export const SENTRY_FORWARDED_FOR_HEADER = "X-Sentry-Forwarded-For";
