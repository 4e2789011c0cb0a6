// Runs one Worker on workerd directly through Miniflare, the way it deploys: the bundle
// `npm run check:deploy` builds (deploy-bundle.mjs: production React, minified), the bindings of its
// wrangler.toml, local D1 in the same persist dir as wrangler, Workers Static Assets, and no
// proxy Worker or inspector in front.
// The Worker's stdout (its log lines) goes to /dev/null (quiet-workerd.mjs), read by no process.
// `node scripts/bench/start-direct.mjs <config> <persist dir> <port>`; the start-up time the
// benchmark reports includes this bundling, as it includes wrangler dev's.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildDeployBundle } from "./deploy-bundle.mjs";
import { useQuietWorkerd } from "./quiet-workerd.mjs";

const [config, persist, port] = process.argv.slice(2);
const bundleDir = mkdtempSync(path.join(os.tmpdir(), "verge-bundle-"));
let bundle;
try {
  [bundle] = buildDeployBundle(bundleDir, { config });
} catch (error) {
  console.error(`bundling ${config} failed: ${error.message}`);
  process.exit(1);
}
const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
useQuietWorkerd(bundleDir);
const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(port),
  // wrangler dev --persist-to <dir> keeps its state under <dir>/v3: the same rows.
  defaultPersistRoot: path.join(persist, "v3"),
  handleRuntimeStdio: (stdout, stderr) => {
    stdout.resume(); // empty: the launcher sent it to /dev/null
    stderr.pipe(process.stderr); // the runtime's own errors stay visible
  },
  workers: [
    {
      ...workerOptions,
      name: path.basename(bundle, ".js"),
      modules: true,
      modulesRoot: bundleDir,
      scriptPath: bundle,
    },
  ],
});
console.log(`ready on ${(await mf.ready).href}`);
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
