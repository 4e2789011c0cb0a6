// The test app's worker entry (for `wrangler dev` under the browser tests): the same runtime,
// handed the test app and its own client build (scripts/build-client.mjs --app fixture).
import { createApp, reportToSentry } from "verge/server";
import manifest from "../../dist/fixture/manifest.json";
import { fixtureApp } from "./app";

const worker = createApp({ ...fixtureApp, manifest, reportError: reportToSentry });

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
