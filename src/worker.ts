// The worker entry: hands the product, its client build and the Sentry reporter to the runtime.
import { createApp } from "./server/create-app";
import { reportToSentry } from "./server/sentry-reporter";
import manifest from "../dist/manifest.json";
import { app } from "./app";

const worker = createApp({ ...app, manifest, reportError: reportToSentry });

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
