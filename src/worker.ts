// The worker entry: hands the product, its client build, the Sentry reporter and Workers tracing
// to the runtime.
import * as workers from "cloudflare:workers";
import { createApp, reportToSentry } from "verge/server";
import manifest from "virtual:verge/manifest";
import { app } from "./app";

// A namespace import: on a runtime without Workers tracing, `tracing` is undefined, not a link error.
const { tracing } = workers as Partial<typeof workers>;
const worker = createApp({ ...app, manifest, reportError: reportToSentry, tracing });

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
