// Builds the Hono app from its inputs: middleware order, the error handler, the one catch-all route.
import { Hono } from "hono";
import { requestLogger } from "./logger";
import { securityHeaders } from "./security-headers";
import { errorResponse } from "./errors";
import { handleRequest } from "./handler";
import type { AppEnv, ReportError } from "./context";

export interface AppDeps {
  /** Sends an error to the error-reporting service (the only door to Sentry). */
  reportError: ReportError;
  /** Writes one log line (defaults to console.log, which is stdout in workerd). */
  log?: (line: string) => void;
}

export function createApp({ reportError, log }: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use(requestLogger({ reportError, write: log }));
  app.use(securityHeaders());
  app.onError(errorResponse);
  app.all("*", handleRequest);
  return app;
}
