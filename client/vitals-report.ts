// Web Vitals, loaded by client/vitals.ts once the page is idle: Google's web-vitals measures a
// document load and a back/forward cache restore, client/vitals-client-view.ts each client
// navigation the router announces (in every browser, not only where soft navigations are
// reported), and each view's figures go once, when it is hidden or left, as a Sentry transaction
// envelope through the relay (docs/protocol.md, "Web Vitals"). What a view showed is read here,
// from its URL and the browser's timing entries: the router only says when a view begins.
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from "web-vitals";
import { PAGE_DATA_PARAM, STATUS, VIEW_EVENT, type PageData, type ViewStart } from "../src/shared/protocol";
import {
  NO_ROUTE,
  RAY_TIMING,
  VITAL_UNITS,
  VITALS_HEADER,
  VITALS_KEY,
  type VitalName,
  type VitalsSummary,
} from "../src/shared/vitals";
import { measureClientView } from "./vitals-client-view";

interface View {
  tags: VitalsSummary;
  values: Partial<Record<VitalName, number>>;
  /** When the view began, in ms from the document's time origin. */
  start: number;
  sent?: boolean;
}

/** Random hex, 16 characters a word: Sentry's ids (2 words for events and traces, 1 for spans). */
const hex = (words: number) =>
  Array.from(crypto.getRandomValues(new BigUint64Array(words)), (word) =>
    word.toString(16).padStart(16, "0"),
  ).join("");

/** The ray an answer named in its Server-Timing (src/server/vitals.ts), if it did. */
const rayOf = (entry?: PerformanceEntry) =>
  (entry as PerformanceResourceTiming | undefined)?.serverTiming.find((timing) => timing.name === RAY_TIMING)
    ?.description;

/** A page's address as its page-data request names it, less the marker: what tells two pages apart. */
const pageOf = (href: string) => {
  const url = new URL(href);
  url.hash = "";
  url.searchParams.delete(PAGE_DATA_PARAM);
  return url.href;
};

/**
 * The envelope: its header names the DSN and, under VITALS_KEY, the summary the relay logs; its one
 * item is a transaction named by the route pattern whose measurements are the view's vitals, as
 * Sentry's browser SDK sends a page load's, with only what Sentry's ingest needs or shows. Nothing
 * in it is the page's URL, and Sentry is told not to infer the visitor's address.
 */
function writeEnvelope(dsn: string, { tags, values, start }: View): string {
  const event_id = hex(2);
  const now = Date.now() / 1000;
  const measurements: Record<string, { value: number; unit: string }> = {};
  for (const [name, value] of Object.entries(values))
    measurements[name] = { value, unit: VITAL_UNITS[name as VitalName] };
  const event = {
    event_id,
    type: "transaction",
    platform: "javascript",
    transaction: tags.route,
    transaction_info: { source: "route" },
    start_timestamp: Math.min(now, (performance.timeOrigin + start) / 1000),
    timestamp: now,
    release: tags.build,
    contexts: {
      trace: {
        trace_id: hex(2),
        span_id: hex(1),
        op: tags.navigation === "client" ? "navigation" : "pageload",
      },
    },
    tags,
    measurements,
    // The browser's name and version pick Sentry's score thresholds; no URL, no address.
    request: { headers: { "User-Agent": navigator.userAgent } },
    sdk: { name: "verge.vitals", version: "1", settings: { infer_ip: "never" } },
  };
  // sent_at lets Sentry correct a visitor's clock; the summary is what the relay logs.
  const header = { event_id, sent_at: new Date().toISOString(), dsn, [VITALS_KEY]: { ...tags, ...values } };
  return [header, { type: "transaction" }, event].map((part) => JSON.stringify(part)).join("\n");
}

export function collect(page: PageData): void {
  const { reporter } = page;
  if (!reporter) return;
  /** By start: 0 for the document, when it began for a restore (web-vitals) or a client navigation. */
  const views = new Map<number, View>();
  /** Refused by the relay's limits: the rest of this document's reports are not sent. */
  let stopped = false;
  /** The route pattern of the page on screen: the document's, then each client navigation's. */
  let shown = page.route;

  /** The view at `href`, kept under its start: its route pattern, the ray of the answer it came from. */
  function viewOf(href: string, navigation: VitalsSummary["navigation"], start: number): View {
    href = pageOf(href);
    const [loaded] = performance.getEntriesByType("navigation");
    // A page a client navigation showed came from a page-data answer (an action's answer has no
    // ray); a restored one from one, or else from the document; a document from its own load.
    const data = performance
      .getEntriesByType("resource")
      .findLast((entry) => rayOf(entry) && pageOf(entry.name) === href);
    const ray = rayOf(
      navigation === "client" ? data : navigation === "back-forward-cache" ? (data ?? loaded) : loaded,
    );
    const tags: VitalsSummary = {
      route: shown ?? NO_ROUTE,
      build: page.build,
      navigation,
      ...(ray && { ray }),
    };
    const view = { tags, values: {}, start };
    views.set(start, view);
    return view;
  }

  function send(view: View): void {
    if (view.sent || stopped) return;
    view.sent = true;
    // A view with no figure of its own (left before its first frame).
    if (!Object.keys(view.values).length) return;
    // A string body goes as text/plain; keepalive lets it outlive the page. The mark puts it on
    // the relay's vitals budget (same-origin, so no preflight), apart from error reports'.
    fetch(reporter!.tunnel, {
      method: "POST",
      headers: { [VITALS_HEADER]: "1" },
      body: writeEnvelope(reporter!.dsn, view),
      keepalive: true,
    }).then(
      (response) => {
        stopped ||= response.status === STATUS.tooManyRequests;
      },
      () => {},
    );
  }

  const add = (metric: MetricType) => {
    const key = metric.navigationStartTime ?? 0;
    let view = views.get(key);
    if (!view) {
      // The document, or a restore (every view before it was sent when the page was hidden),
      // restored as it was left: the page on screen, which a client navigation may have shown. (A
      // document's ray is its own navigation's: its address matters only to a restore.)
      // Never "soft-navigation": web-vitals is not asked for them (reportSoftNavs).
      const navigation = metric.navigationType as Exclude<typeof metric.navigationType, "soft-navigation">;
      view = viewOf(location.href, navigation, key);
    }
    // Every change: a view that a client navigation ends is sent with its figures as they stand.
    if (!view.sent) view.values[metric.name.toLowerCase() as VitalName] = metric.value;
  };
  for (const on of [onCLS, onINP, onLCP, onFCP, onTTFB])
    (on as typeof onTTFB)(add, { reportAllChanges: true });

  addEventListener(VIEW_EVENT, (event) => {
    const { href, route, start } = (event as CustomEvent<ViewStart>).detail;
    // The page before it is left: its figures so far are its last.
    views.forEach(send);
    shown = route;
    const view = viewOf(href, "client", start);
    measureClientView(start, (name, value) => void (view.sent || (view.values[name] = value)));
  });
  // After web-vitals' own listener (capture), which reports the final CLS, INP and LCP first.
  addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") views.forEach(send);
  });
}
