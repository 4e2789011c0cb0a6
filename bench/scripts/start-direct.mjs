// Runs one Worker on workerd directly through Miniflare, the way it deploys: the bundle
// `npm run check:deploy` builds (deploy-bundle.mjs: production React, minified), the bindings of its
// wrangler.toml and local D1 in the same persist dir as wrangler, with no proxy Worker or inspector.
// The Worker listens on its own socket (Miniflare's unsafeDirectSockets): no Worker runs before it
// in its process. Miniflare's public socket runs its entry Worker and, with [assets], the local
// asset router (three more Workers, each a subrequest) before the Worker, about 0.9 ms of CPU a
// request in the Worker's own process here; the edge runs neither as the Worker's CPU. `--routed`
// keeps them in front (how the runs of performance passes 3 to 5 measured; BENCHMARKS.md).
// The Worker's stdout (its log lines) goes to /dev/null (quiet-workerd.mjs), read by no process.
// `node scripts/bench/start-direct.mjs <config> <persist dir> <port> [--routed]`; the start-up
// time the benchmark reports includes this bundling, as it includes wrangler dev's.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildDeployBundle } from "../../scripts/deploy-bundle.mjs";
import { useQuietWorkerd } from "./quiet-workerd.mjs";

const [config, persist, port, mode] = process.argv.slice(2);
const routed = mode === "--routed";
const bundleDir = mkdtempSync(path.join(os.tmpdir(), "verge-bundle-"));
let bundle;
try {
  [bundle] = buildDeployBundle(bundleDir, { config });
} catch (error) {
  console.error(`bundling ${config} failed: ${error.message}`);
  process.exit(1);
}
const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
// On its own socket the Worker answers every path itself: Workers Static Assets' files are
// served before the Worker on the edge and are measured as files (sizes.mjs). No page reads
// the ASSETS binding, so the Worker's answers are the same as behind the router.
const { assets: _, ...ownSocketOptions } = workerOptions;
useQuietWorkerd(bundleDir);
const mf = new Miniflare({
  host: "127.0.0.1",
  // Miniflare's own entry socket: the Worker's public port when routed, a spare one otherwise.
  port: routed ? Number(port) : 0,
  // wrangler dev --persist-to <dir> keeps its state under <dir>/v3: the same rows.
  defaultPersistRoot: path.join(persist, "v3"),
  handleRuntimeStdio: (stdout, stderr) => {
    stdout.resume(); // empty: the launcher sent it to /dev/null
    stderr.pipe(process.stderr); // the runtime's own errors stay visible
  },
  workers: [
    {
      ...(routed
        ? workerOptions
        : { ...ownSocketOptions, unsafeDirectSockets: [{ host: "127.0.0.1", port: Number(port) }] }),
      name: path.basename(bundle, ".js"),
      modules: true,
      modulesRoot: bundleDir,
      scriptPath: bundle,
    },
  ],
});
await mf.ready;
console.log(
  `ready on http://127.0.0.1:${port}/${routed ? " (behind Miniflare's entry Worker and asset router)" : ""}`,
);
const stop = () =>
  mf
    .dispose()
    .finally(() => rmSync(bundleDir, { recursive: true, force: true }))
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
