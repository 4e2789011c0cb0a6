// The Web Vitals part of the protocol: the ray each answer names for them, and what a vitals
// envelope tells the relay in its header line (docs/protocol.md, "Web Vitals"). A module of its
// own, out of the first-paint chunk and the router's: only the collector and the server read it.

/**
 * The Server-Timing entry that names an answer's ray where Web Vitals are on (`ray;desc="..."`, no
 * duration): what a page can read of its document's and its page-data answers (serverTiming).
 */
export const RAY_TIMING = "ray";

/**
 * The request header that marks a post to the relay as a vitals report: it is counted against the
 * vitals budgets, not the error reports', and must then be one vitals envelope (src/server/relay.ts).
 */
export const VITALS_HEADER = "X-Vitals";

/** The envelope header key of a vitals report's summary: the relay reads only the header line. */
export const VITALS_KEY = "verge_vitals";

/** The metrics, by the names Sentry's measurements use, and their units there. */
export const VITAL_UNITS = {
  lcp: "millisecond",
  fcp: "millisecond",
  inp: "millisecond",
  ttfb: "millisecond",
  cls: "none",
} as const;

export type VitalName = keyof typeof VITAL_UNITS;

/**
 * How the view began: web-vitals' navigation types for a document (and a back/forward cache
 * restore), "client" for a client navigation.
 */
export const NAVIGATION_KINDS = [
  "navigate",
  "reload",
  "back-forward",
  "back-forward-cache",
  "prerender",
  "restore",
  "client",
] as const;

export type NavigationKind = (typeof NAVIGATION_KINDS)[number];

/** One view's report, as the envelope header carries it and the relay logs it (checked). */
export type VitalsSummary = {
  /** The route pattern (never the URL); "(none)" for a page no route matched. */
  route: string;
  build: string;
  navigation: NavigationKind;
  /** The ray of the document or page-data answer the view was rendered from. */
  ray?: string;
} & Partial<Record<VitalName, number>>;

/** The route of a page no route matched, as the server's error reports name it. */
export const NO_ROUTE = "(none)";
