// Web Vitals on the server: the share of page loads that send them (VITALS_SAMPLE_RATE), the ray
// each document and page-data answer hands the browser for them, and the check of a report's
// summary before the relay logs it (docs/protocol.md, "Web Vitals").
import type { AppContext } from "./context";
import { underLocalServer } from "./dev";
import { configuredDsn } from "./sentry-dsn";
import { NAVIGATION_KINDS, NO_ROUTE, RAY_TIMING, VITAL_UNITS, type VitalsSummary } from "../shared/vitals";

/** The share of page loads deployed workers measure when VITALS_SAMPLE_RATE is empty. */
export const DEFAULT_VITALS_RATE = 0.1;

/**
 * VITALS_SAMPLE_RATE as a share of page loads: empty, every load on the local servers (`npm run
 * dev`, `npm run preview`) and DEFAULT_VITALS_RATE deployed; "0" (or anything not a number), none.
 */
export function vitalsRate(c: AppContext): number {
  const text = (c.env?.VITALS_SAMPLE_RATE ?? "").trim();
  if (text === "") return underLocalServer(c) ? 1 : DEFAULT_VITALS_RATE;
  const rate = Number(text);
  return Number.isFinite(rate) ? Math.min(1, Math.max(0, rate)) : 0;
}

/** A ray as Cloudflare writes it (hex, then "-" and a location) or as verge makes one locally. */
const RAY = /^[0-9a-z]{1,32}(-[0-9a-z]{1,8})?$/i;

/** The share of page loads the document asks to measure: none without a DSN (nowhere to send them). */
export function vitalsSampled(c: AppContext): number | undefined {
  const rate = vitalsRate(c);
  return rate > 0 && configuredDsn(c.env) ? rate : undefined;
}

/**
 * The Server-Timing entry naming this answer's ray, where Web Vitals are sent; null elsewhere, or
 * when the ray is not one.
 */
export function rayTiming(c: AppContext): string | null {
  if (vitalsSampled(c) === undefined) return null;
  const ray = c.get("ray");
  return typeof ray === "string" && RAY.test(ray) ? `${RAY_TIMING};desc="${ray}"` : null;
}

/** The longest metric value logged (ms): ten minutes; past that it is not a measurement. */
const MAX_MS = 600_000;
const MAX_CLS = 100;
const BUILD = /^[0-9a-z]{1,40}$/i;

/**
 * A report's summary in the checked form a log line may hold (a visitor wrote it): a route the
 * app has, a build id, a known navigation kind, a ray, and finite metric values in range (ms
 * rounded to 0.1, CLS to 0.0001). Null when the route or the build is not one.
 */
export function checkedVitals(value: unknown, routes: readonly { path: string }[]): VitalsSummary | null {
  if (typeof value !== "object" || value === null) return null;
  const given = value as Record<string, unknown>;
  const known = given.route === NO_ROUTE || routes.some((route) => route.path === given.route);
  if (!known || typeof given.build !== "string" || !BUILD.test(given.build)) return null;
  const navigation = NAVIGATION_KINDS.find((kind) => kind === given.navigation);
  if (!navigation) return null;
  const summary: VitalsSummary = { route: given.route as string, build: given.build, navigation };
  if (typeof given.ray === "string" && RAY.test(given.ray)) summary.ray = given.ray;
  for (const name of Object.keys(VITAL_UNITS) as (keyof typeof VITAL_UNITS)[]) {
    const metric = given[name];
    const max = name === "cls" ? MAX_CLS : MAX_MS;
    if (typeof metric !== "number" || !(metric >= 0 && metric <= max)) continue;
    const scale = name === "cls" ? 10_000 : 10;
    summary[name] = Math.round(metric * scale) / scale;
  }
  return summary;
}
