// Runs one Worker on workerd directly through Miniflare, the way it deploys: the bundle
// `npm run check:deploy` builds (deploy-bundle.mjs: production React, minified), the bindings of its
// wrangler.toml, local D1 in the same persist dir as wrangler, Workers Static Assets, and no
// proxy Worker or inspector in front.
// The Worker's stdout (its log lines) goes to /dev/null, not through a pipe to this process. A
// line written into a pipe that Node reads cost workerd about 0.05 ms per request on this VM (the
// write wakes the reader on the other core), and the reading cost Node 0.1-0.2 ms: costs of the
// local setup, which the edge, collecting a request's logs with its trace, does not have, and
// which the floor, writing no lines, would not pay (BENCHMARKS.md, performance pass 4). Under
// `wrangler dev`, Node parses and source-maps every line besides (0.4-0.6 ms per request).
// `node scripts/bench/start-direct.mjs <config> <persist dir> <port>`; the start-up time the
// benchmark reports includes this bundling, as it includes wrangler dev's.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildDeployBundle } from "./deploy-bundle.mjs";

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
// Miniflare starts the runtime named by MINIFLARE_WORKERD_PATH: the pinned workerd, stdout to /dev/null.
const workerd = createRequire(import.meta.resolve("miniflare"))("workerd").default;
const launcher = path.join(bundleDir, "workerd-quiet.sh");
writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(workerd)} "$@" >/dev/null\n`);
chmodSync(launcher, 0o755);
process.env.MINIFLARE_WORKERD_PATH = launcher;
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
