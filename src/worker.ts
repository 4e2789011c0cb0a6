// The worker entry: hands the product, its client build and the Sentry reporter to the runtime.
import { createApp, reportToSentry } from "verge/server";
import manifest from "../dist/manifest.json";
import { app } from "./app";

const worker = createApp({ ...app, manifest, reportError: reportToSentry });

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
