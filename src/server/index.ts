// verge/server: what a worker entry needs to serve a product (src/worker.ts, test/fixture-app).
export { createApp, type AppDeps } from "./create-app";
export { reportToSentry } from "./sentry-reporter";
// Work without a request: the `scheduled` handler and the product's sweeps of expired rows.
export {
  createScheduled,
  type ScheduledDeps,
  type ScheduledJob,
  type ScheduledLogLine,
  type ScheduledRun,
} from "./scheduled";
export { sweepJob, type Sweep } from "./sweep";
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
// A read that decides access, at the primary: a revocation is seen there at once.
export { primaryDB } from "./d1-session";
