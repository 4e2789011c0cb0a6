// What a page tells the browser reporter (its DSN, and the same-site relay's path it sends
// through), and that path, which also decides a request's kind (request-kind.ts).
import type { ReporterConfig } from "../shared/protocol";
import { configuredDsn, publicDsn } from "./sentry-dsn";

export const DEFAULT_RELAY_PATH = "/monitoring";

export function relayPath(env: Env): string {
  return env.SENTRY_RELAY_PATH || DEFAULT_RELAY_PATH;
}

/** What the browser reporter needs, from server config: undefined (reporter off) without a DSN. */
export function reporterConfig(env: Env): ReporterConfig | undefined {
  // Every HTML answer embeds this; the config is fixed per isolate, so parse the DSN once.
  const dsnText = env.SENTRY_DSN;
  const tunnel = relayPath(env);
  let cached = reporterCache;
  if (cached === undefined || cached.dsnText !== dsnText || cached.tunnel !== tunnel) {
    const dsn = configuredDsn(env);
    cached = { dsnText, tunnel, config: dsn ? { dsn: publicDsn(dsn), tunnel } : undefined };
    reporterCache = cached;
  }
  return cached.config;
}

let reporterCache:
  { dsnText: string | undefined; tunnel: string; config: ReporterConfig | undefined } | undefined;
