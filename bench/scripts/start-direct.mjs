// The process the benchmark starts for each Worker (server.mjs): the Worker on workerd through
// Miniflare (miniflare.mjs) on 127.0.0.1:<port> until SIGTERM, in a process apart from the load
// generator so that the CPU of each is read on its own. The bundle is built beforehand (trees.mjs).
//   node bench/scripts/start-direct.mjs <config> <bundle> <persist dir> <port> [--routed]
import { startMiniflare } from "./miniflare.mjs";

const [config, bundle, persist, port, ...flags] = process.argv.slice(2);
const routed = flags.includes("--routed");
const worker = await startMiniflare({ config, bundle, persist, port: Number(port), routed });
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
