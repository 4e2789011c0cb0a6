// One Worker on workerd through Miniflare, as it deploys: a bundle built as `vite build` builds the
// app's (trees.mjs: production React, minified), the bindings of its wrangler.toml, and local D1
// where `--persist-to` keeps it. No proxy Worker, no inspector, no Node process reading its log lines.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { BENCH_BOOKMARK_SECRET } from "./render-bookmark.mjs";

/**
 * Points Miniflare (MINIFLARE_WORKERD_PATH) at a launcher that runs the pinned workerd with its
 * stdout, the Worker's log lines, going to /dev/null. Through a pipe that Node drains, each line
 * cost the Worker's process about 0.05 ms here (the write wakes the reader on the other core), a
 * cost the edge, which collects a request's logs with its trace, does not have.
 */
function useQuietWorkerd(dir) {
  const workerd = createRequire(import.meta.resolve("miniflare"))("workerd").default;
  const launcher = path.join(dir, "workerd-quiet.sh");
  writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(workerd)} "$@" >/dev/null\n`);
  chmodSync(launcher, 0o755);
  process.env.MINIFLARE_WORKERD_PATH = launcher;
}

/**
 * Starts `bundle` (a Worker built by trees.mjs) with the bindings of `config` and its state under
 * `persist`. With a `port`, the Worker listens on 127.0.0.1:`port` itself (Miniflare's
 * unsafeDirectSockets) and runs without [assets]: on its public port Miniflare runs its entry
 * Worker and, with [assets], the local asset router (three more Workers, each a subrequest) before
 * the Worker, in the Worker's own process; the edge runs neither as the Worker's CPU. No page reads
 * the ASSETS binding, and the client's files are weighed as files (sizes.mjs). `routed` keeps
 * them in front, on `port`: one of the traps (traps.mjs). `inspectorPort` opens DevTools (profiles).
 */
export async function startMiniflare({ config, bundle, persist, port = 0, routed = false, inspectorPort }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "verge-workerd-"));
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
  const { assets: _, ...withoutAssets } = workerOptions;
  const ownSocket = port && !routed ? [{ host: "127.0.0.1", port }] : undefined;
  useQuietWorkerd(dir);
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: routed ? port : 0,
    inspectorPort,
    defaultPersistRoot: path.join(persist, "v3"),
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.resume(); // empty: the launcher sent it to /dev/null
      stderr.pipe(process.stderr); // the runtime's own errors stay visible
    },
    workers: [
      {
        ...(routed ? workerOptions : withoutAssets),
        // The secret the app seals D1 bookmarks with: the workloads' bookmark is sealed under it.
        bindings: { ...workerOptions.bindings, D1_BOOKMARK_SECRET: BENCH_BOOKMARK_SECRET },
        name: path.basename(bundle, ".js"),
        modules: true,
        modulesRoot: path.dirname(bundle),
        scriptPath: bundle,
        unsafeDirectSockets: ownSocket,
      },
    ],
  });
  const url = await mf.ready.finally(() => {
    // The launcher has run (exec: workerd is the process now), so nothing is left behind if this
    // process is killed.
    rmSync(dir, { recursive: true, force: true });
  });
  const dispose = () => mf.dispose();
  return { url, dispose };
}
