// The process the benchmark starts for each Worker (server.mjs): the Worker on workerd through
// Miniflare (miniflare.mjs) on 127.0.0.1:<port> until SIGTERM, in a process apart from the load
// generator so that the CPU of each is read on its own. The start-up time the benchmark reports
// includes the bundling, as `wrangler dev`'s includes its own.
//   node bench/scripts/start-direct.mjs <config> <persist dir> <port> [--routed] [--script=<entry>]
import { startMiniflare } from "./miniflare.mjs";

const [config, persist, port, ...flags] = process.argv.slice(2);
const routed = flags.includes("--routed");
/** Another entry module than the config's main, bundled with its settings (the bench's app). */
const script = flags.find((flag) => flag.startsWith("--script="))?.slice("--script=".length);
const worker = await startMiniflare({ config, script, persist, port: Number(port), routed });
console.log(
  `ready on http://127.0.0.1:${port}/${routed ? " (behind Miniflare's entry Worker and asset router)" : ""}`,
);
const stop = () =>
  worker.dispose().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
