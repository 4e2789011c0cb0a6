// Builds the app from its inputs: the product (routes, layout, not-found page), its client
// manifest and the reporting hook. Middleware order: refused-body drain (local servers only), the
// request's kind, timings, log line, error capture, security headers, the routes' rules (checked
// once), D1 bookmarks.
import { HonoBase } from "hono/hono-base";
import { LinearRouter } from "hono/router/linear-router";
import type { AppConfig, AppEnv, ReportError, Tracing } from "./context";
import { requestLogger } from "./logger";
import { requestTimings } from "./timings";
import { errorCapture } from "./capture";
import { securityHeaders } from "./headers";
import { d1Bookmarks } from "./d1-session";
import { errorResponse } from "./errors";
import { dispatch } from "./dispatch";
import { decideRequestKind } from "./request-kind";
import { routeRules } from "./cache-policy";
import { localBodyDrain } from "./local-body-drain";

/** The product and its client build (AppConfig), and what the runtime reports and logs through. */
export interface AppDeps extends AppConfig {
  /** Sends an error to the error-reporting service (the only door to Sentry). */
  reportError: ReportError;
  /** Writes one log line (defaults to console.log, which is stdout in workerd). */
  log?: (line: string) => void;
  /**
   * Workers tracing for the phases' spans: `tracing` of cloudflare:workers, which the worker entry
   * hands over (the runtime never imports cloudflare:workers, so it builds anywhere). Absent: none.
   */
  tracing?: Tracing;
}

export function createApp({ reportError, log, tracing, ...config }: AppDeps) {
  // Every handler here is on "*" (dispatch matches pages itself), so Hono's router only chains
  // them. Its default one builds a regular expression on an isolate's first request; LinearRouter
  // walks them in order, which makes that request cheaper and costs nothing after it
  // (BENCHMARKS.md, "The first request after start"). HonoBase is Hono without its default
  // routers, which the bundle would otherwise carry unused.
  const app = new HonoBase<AppEnv>({ router: new LinearRouter() });
  app.use(async function provideApp(c, next) {
    c.set("app", config);
    await next();
  });
  app.use(localBodyDrain());
  app.use(decideRequestKind());
  app.use(requestTimings(tracing));
  app.use(requestLogger(log));
  app.use(errorCapture(reportError));
  app.use(securityHeaders());
  app.use(routeRules(config.routes, config.manifest.mode !== "development"));
  app.use(d1Bookmarks());
  // Only failures outside dispatch reach here (dispatch answers its own, whatever was thrown).
  app.onError((error, c) => errorResponse(c, error, c.get("kind")?.errorFormat ?? "text"));
  app.all("*", dispatch);
  return app;
}
