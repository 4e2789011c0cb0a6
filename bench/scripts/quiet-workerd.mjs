// Miniflare starts the runtime named by MINIFLARE_WORKERD_PATH. The benchmark's launcher runs the
// pinned workerd with its stdout (the Worker's log lines) going to /dev/null instead of a pipe that
// Node reads: on this VM each line written into that pipe cost the Worker's process about 0.05 ms
// (the write wakes the reader on the other core), a cost of the local setup that the edge, which
// collects a request's logs with its trace, does not have (BENCHMARKS.md, performance pass 4).
import { chmodSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Writes the launcher into `dir` and points Miniflare at it (for Miniflares created after). */
export function useQuietWorkerd(dir) {
  const workerd = createRequire(import.meta.resolve("miniflare"))("workerd").default;
  const launcher = path.join(dir, "workerd-quiet.sh");
  writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(workerd)} "$@" >/dev/null\n`);
  chmodSync(launcher, 0o755);
  process.env.MINIFLARE_WORKERD_PATH = launcher;
}
