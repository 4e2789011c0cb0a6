// The worker entry: hands the product, its client build, the Sentry reporter and Workers tracing
// to the runtime, and the product's jobs to its `scheduled` handler (the cron in wrangler.toml).
import * as workers from "cloudflare:workers";
import { createApp, createScheduled, reportToSentry } from "verge/server";
import manifest from "virtual:verge/manifest";
import { app } from "./app";
import { jobs } from "./app/jobs.server";

// A namespace import: on a runtime without Workers tracing, `tracing` is undefined, not a link error.
const { tracing } = workers as Partial<typeof workers>;
const worker = createApp({ ...app, manifest, reportError: reportToSentry, tracing });
const scheduled = createScheduled({ jobs, manifest, reportError: reportToSentry });

export default { fetch: worker.fetch, scheduled } satisfies ExportedHandler<Env>;
