// Runs one Worker the way `wrangler dev` does, but with no DevTools inspector attached:
// `node scripts/bench/start-worker.mjs <config> <persist dir> <port> [log level]`.
// `wrangler dev` keeps an inspector session open on the Worker for its whole life, so every
// console.log is also serialised as a DevTools event, a cost the edge does not have; its
// command line cannot turn that off, wrangler's startWorker API can (`dev.inspector: false`).
// Same bundling, local D1 in the same persist dir, the same Workers Static Assets and proxy.
import { unstable_startWorker } from "wrangler";

const [config, persist, port, logLevel = "warn"] = process.argv.slice(2);
const worker = await unstable_startWorker({
  config,
  dev: {
    inspector: false,
    persist,
    logLevel,
    watch: false,
    liveReload: false,
    server: { hostname: "127.0.0.1", port: Number(port) },
  },
});
await worker.ready;
// The parent waits for a 200 from the port; this line is for the log file.
console.log(`ready on ${(await worker.url).href}`);
const stop = () =>
  worker.dispose().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
