// verge/server: what a worker entry needs to serve a product (src/worker.ts, test/fixture-app).
export { createApp, type AppDeps } from "./create-app";
export { reportToSentry } from "./sentry-reporter";
// Sessions (D1, the `__Host-session` cookie): for a product's server-only code (*.server.ts, middleware).
export {
  clearedSessionCookie,
  createSession,
  nowSeconds,
  readSession,
  revokeAccountSessions,
  revokeSession,
  sessionCookie,
  SESSION_COOKIE,
  type CreatedSession,
  type ReadOptions,
  type ReadSession,
  type Session,
} from "./sessions";
