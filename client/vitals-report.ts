// Web Vitals, loaded by client/vitals.ts once the page is idle: Google's web-vitals measures each
// view (a document load, a back/forward cache restore and, where the browser reports soft
// navigations, a client navigation), and each view's figures go once, when it is hidden or left,
// as a Sentry transaction envelope through the relay (docs/protocol.md, "Web Vitals").
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from "web-vitals";
import { RAY_TIMING, STATUS, type PageData, type ReporterConfig } from "../src/shared/protocol";
import {
  NO_ROUTE,
  VITAL_UNITS,
  VITALS_KEY,
  type NavigationKind,
  type VitalName,
  type VitalsSummary,
} from "../src/shared/vitals";
import { shownView, type ShownView } from "./vitals";

interface View {
  summary: VitalsSummary;
  op: "pageload" | "navigation";
  /** When the view began, in ms from the document's time origin. */
  start: number;
}

const hex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The envelope: its header names the DSN, the trace (Sentry's dynamic sampling context) and, under
 * VITALS_KEY, the summary the relay logs; its one item is a transaction named by the route pattern
 * whose measurements are the view's vitals, as Sentry's browser SDK sends a page load's. Nothing in
 * it is the page's URL, and Sentry is told not to infer the visitor's address.
 */
export function writeEnvelope(config: ReporterConfig, rate: number, view: View): string {
  const { summary } = view;
  const eventId = hex(16);
  const traceId = hex(16);
  const measurements: Record<string, { value: number; unit: string }> = {};
  for (const [name, unit] of Object.entries(VITAL_UNITS)) {
    const value = summary[name as VitalName];
    if (value !== undefined) measurements[name] = { value, unit };
  }
  const now = Date.now() / 1000;
  const sdk = { name: "verge.vitals", version: "1.0.0" };
  const { route, build, navigation, ray } = summary;
  const event = JSON.stringify({
    event_id: eventId,
    type: "transaction",
    platform: "javascript",
    transaction: route,
    transaction_info: { source: "route" },
    start_timestamp: Math.min(now, (performance.timeOrigin + view.start) / 1000),
    timestamp: now,
    release: build,
    contexts: { trace: { trace_id: traceId, span_id: hex(8), op: view.op } },
    tags: { route, build, navigation, ...(ray ? { ray } : {}) },
    measurements,
    spans: [],
    // The browser's name and version pick Sentry's score thresholds; no URL, no address.
    request: { headers: { "User-Agent": navigator.userAgent } },
    sdk: { ...sdk, settings: { infer_ip: "never" } },
  });
  const trace = {
    trace_id: traceId,
    public_key: new URL(config.dsn).username,
    release: build,
    transaction: route,
    sample_rate: String(rate),
    sampled: "true",
  };
  const header = { event_id: eventId, sent_at: new Date().toISOString(), dsn: config.dsn, sdk, trace };
  return `${JSON.stringify({ ...header, [VITALS_KEY]: summary })}\n{"type":"transaction"}\n${event}\n`;
}

export function collect(page: PageData): void {
  const config = page.reporter;
  const rate = page.vitals;
  if (!config || !rate) return;
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const loaded: ShownView = {
    route: page.route,
    ray: navigation?.serverTiming?.find((entry) => entry.name === RAY_TIMING)?.description,
  };
  const views = new Map<string, View>();
  const sent = new Set<string>();
  let restores = 0;
  let stopped = false;
  // Registered before web-vitals' own listener (both capture), so its restore reports count as the new view.
  addEventListener("pageshow", (event) => void (event.persisted && restores++), true);

  /** The view a metric belongs to, by web-vitals' navigation type: its key and a fresh record. */
  function viewOf(metric: MetricType): [string, View] | null {
    const type = metric.navigationType;
    let key = "load";
    let shown: ShownView | undefined = loaded;
    if (type === "soft-navigation") {
      key = `client ${metric.navigationId}`;
      shown = shownView(metric.navigationURL ?? "");
    } else if (type === "back-forward-cache") {
      // Restored as it was left: the page on screen then, which a client navigation may have shown.
      key = `restore ${restores}`;
      shown = shownView(location.href) ?? loaded;
    }
    if (!shown) return null;
    const kind: NavigationKind = type === "soft-navigation" ? "client" : type;
    const summary: VitalsSummary = { route: shown.route ?? NO_ROUTE, build: page.build, navigation: kind };
    if (shown.ray) summary.ray = shown.ray;
    const op = type === "soft-navigation" ? "navigation" : "pageload";
    return [key, { summary, op, start: metric.navigationStartTime ?? 0 }];
  }

  function send(key: string): void {
    const view = views.get(key);
    views.delete(key);
    if (!view || sent.has(key) || stopped) return;
    sent.add(key);
    // A view with no figure of its own (a client navigation that only got the placeholder TTFB).
    if (!Object.keys(VITAL_UNITS).some((name) => name in view.summary)) return;
    fetch(config!.tunnel, {
      method: "POST",
      // text/plain keeps it a simple request; keepalive lets it outlive a page being left.
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
      body: writeEnvelope(config!, rate!, view),
      keepalive: true,
    }).then(
      (response) => void (response.status === STATUS.tooManyRequests && (stopped = true)),
      () => {},
    );
  }

  const add = (metric: MetricType) => {
    const found = viewOf(metric);
    if (!found || sent.has(found[0])) return;
    let view = views.get(found[0]);
    if (!view) {
      views.set(found[0], (view = found[1]));
      // A new view: web-vitals gives the views before it their last figures in this same task.
      const left = [...views.keys()].filter((key) => key !== found[0]);
      setTimeout(() => left.forEach(send));
    }
    const name = metric.name.toLowerCase() as VitalName;
    // A client navigation's TTFB is web-vitals' placeholder 0; its page-data request has its own log line.
    if (!(name === "ttfb" && metric.navigationType === "soft-navigation")) view.summary[name] = metric.value;
  };
  for (const on of [onCLS, onINP, onLCP, onFCP, onTTFB]) (on as typeof onTTFB)(add, { reportSoftNavs: true });
  // After web-vitals' own listener (capture), which reports the final CLS, INP and LCP first.
  addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") [...views.keys()].forEach(send);
  });
}
