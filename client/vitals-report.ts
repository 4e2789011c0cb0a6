// Web Vitals, loaded by client/vitals.ts once the page is idle: Google's web-vitals measures each
// view (a document load, a back/forward cache restore and, where the browser reports soft
// navigations, a client navigation), and each view's figures go once, when it is hidden or left,
// as a Sentry transaction envelope through the relay (docs/protocol.md, "Web Vitals"). What a view
// showed is read here, from its URL and the browser's timing entries: the router keeps nothing.
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from "web-vitals";
import { PAGE_DATA_PARAM, type PageData, STATUS } from "../src/shared/protocol";
import type { RouteTable } from "../src/shared/route-module";
import { matchRoute } from "../src/shared/routing";
import {
  NO_ROUTE,
  RAY_TIMING,
  VITAL_UNITS,
  VITALS_HEADER,
  VITALS_KEY,
  type VitalName,
  type VitalsSummary,
} from "../src/shared/vitals";

interface View {
  tags: VitalsSummary;
  values: Partial<Record<VitalName, number>>;
  /** A client navigation (Sentry's op "navigation"), not a page load. */
  client: boolean;
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
function writeEnvelope(dsn: string, { tags, values, client, start }: View): string {
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
    contexts: { trace: { trace_id: hex(2), span_id: hex(1), op: client ? "navigation" : "pageload" } },
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

export function collect(page: PageData, routes: RouteTable): void {
  const { reporter } = page;
  if (!reporter) return;
  /** By web-vitals' navigationStartTime: 0 for the document, when it began for each later view. */
  const views = new Map<number, View>();
  /** Refused by the relay's limits: the rest of this document's reports are not sent. */
  let stopped = false;

  /** What the view `metric` belongs to showed: its route pattern, the ray of the answer it came from. */
  function viewOf(metric: MetricType): View {
    const type = metric.navigationType;
    const client = type === "soft-navigation";
    const restored = type === "back-forward-cache";
    // Restored as it was left: the page on screen then, which a client navigation may have shown.
    const href = pageOf(restored ? location.href : (metric.navigationURL ?? location.href));
    const [loaded] = performance.getEntriesByType("navigation");
    // A page a client navigation showed came from a page-data answer (an action's answer has no ray).
    const data = performance
      .getEntriesByType("resource")
      .findLast((entry) => rayOf(entry) && pageOf(entry.name) === href);
    const ray = rayOf(client ? data : restored ? (data ?? loaded) : loaded);
    const tags: VitalsSummary = {
      route: matchRoute(routes, new URL(href).pathname)?.route.path ?? NO_ROUTE,
      build: page.build,
      navigation: client ? "client" : type,
      ...(ray && { ray }),
    };
    return { tags, values: {}, client, start: metric.navigationStartTime ?? 0 };
  }

  function send(view: View): void {
    if (view.sent || stopped) return;
    view.sent = true;
    // A view with no figure of its own (a client navigation that only got the placeholder TTFB).
    if (!Object.keys(view.values).length) return;
    // A string body goes as text/plain; keepalive lets it outlive the page. The mark puts it on
    // the relay's vitals budget (same-origin, so no preflight), apart from error reports'.
    fetch(reporter!.tunnel, {
      method: "POST",
      headers: { [VITALS_HEADER]: "1" },
      body: writeEnvelope(reporter!.dsn, view),
      keepalive: true,
    }).then(
      (response) => void (response.status === STATUS.tooManyRequests && (stopped = true)),
      () => {},
    );
  }

  const add = (metric: MetricType) => {
    const key = metric.navigationStartTime ?? 0;
    let view = views.get(key);
    if (!view) {
      // A new view: web-vitals gives the views before it their last figures in this same task.
      const left = [...views.values()];
      setTimeout(() => left.forEach(send));
      views.set(key, (view = viewOf(metric)));
    }
    const name = metric.name.toLowerCase() as VitalName;
    // A client navigation's TTFB is web-vitals' placeholder 0; its page-data request has its own log line.
    if (!view.sent && !(name === "ttfb" && view.client)) view.values[name] = metric.value;
  };
  for (const on of [onCLS, onINP, onLCP, onFCP, onTTFB]) (on as typeof onTTFB)(add, { reportSoftNavs: true });
  // After web-vitals' own listener (capture), which reports the final CLS, INP and LCP first.
  addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") views.forEach(send);
  });
}
