// The worker entry: wires the real dependencies into the app.
import { createApp } from "./create-app";
import { reportToSentry } from "./reporting";

const app = createApp({ reportError: reportToSentry });

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
