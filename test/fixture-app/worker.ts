// The test app's worker entry (served under the browser tests): the same runtime, handed the test
// app and its own client build's manifest.
import { createApp, reportToSentry } from "verge/server";
import manifest from "virtual:verge/manifest";
import { fixtureApp } from "./app";

const worker = createApp({ ...fixtureApp, manifest, reportError: reportToSentry });

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
