// verge/server: what a worker entry needs to serve a product (src/worker.ts, test/fixture-app).
export { createApp, type AppDeps } from "./create-app";
export { reportToSentry } from "./sentry-reporter";
