// Starts `wrangler dev` the way the benchmark needs it: production React, quiet logs, own state.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { wranglerProcesses } from "./proc.mjs";
import { freePort, wranglerDevArgs } from "../../scripts/local-server.mjs";

export const root = path.resolve(import.meta.dirname, "../..");
const wrangler = path.join(root, "node_modules/.bin/wrangler");

/**
 * NODE_ENV=production: wrangler dev bundles React's development build otherwise, several times
 * slower and not what deploys. The rest keeps wrangler from phoning home or colouring output.
 */
export const ENV = { ...process.env, NODE_ENV: "production", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };

/** Applies migrations/ to the local D1 in `state` (nothing to do while there are none). */
export function applyMigrations(state) {
  const dir = path.join(root, "migrations");
  if (!existsSync(dir) || !readdirSync(dir).some((f) => f.endsWith(".sql"))) return;
  const args = ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state];
  const result = spawnSync(wrangler, args, { cwd: root, env: ENV, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`applying migrations failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * Runs the Worker of `config` on a free loopback port with its state in `state`, and waits for
 * the first 200 from `/`. `runner`:
 * - "direct" (the default): workerd through Miniflare, running the bundle `wrangler deploy
 *   --dry-run` builds (start-direct.mjs), on the Worker's own socket: no proxy Worker, no
 *   inspector, no Worker of Miniflare's before it, and the Worker's log lines sent to /dev/null,
 *   read by no process, so what is measured is what the edge runs as the Worker.
 * - "routed": the same behind Miniflare's entry Worker and the local asset router, which run
 *   in the Worker's process (how performance passes 3 to 5 measured).
 * - "wrangler": wrangler's startWorker API with no inspector (start-worker.mjs: what
 *   `wrangler dev` runs, minus the DevTools session it keeps attached): the proxy Worker in
 *   front, and wrangler's Node reading every log line. `logLevel` "warn": at the default level
 *   wrangler logs every request, which costs about 15% of throughput.
 * - "inspector": `wrangler dev` itself (the profiler needs the inspector; `extraArgs` go to it).
 */
export async function startServer({
  name,
  config,
  state,
  logFile,
  logLevel = "warn",
  env = ENV,
  runner = "direct",
  extraArgs = [],
}) {
  const port = await freePort();
  const script = (file, ...args) => [process.execPath, [path.join(import.meta.dirname, file), ...args]];
  const [command, args] =
    runner === "inspector"
      ? [
          wrangler,
          wranglerDevArgs({ port, persistTo: state, config, extra: ["--log-level", logLevel, ...extraArgs] }),
        ]
      : runner === "wrangler"
        ? script("start-worker.mjs", config, state, String(port), logLevel)
        : script(
            "start-direct.mjs",
            config,
            state,
            String(port),
            ...(runner === "routed" ? ["--routed"] : []),
          );
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name}: the worker exited early; see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`${name}: no 200 from ${url}/ within 120 s; see ${logFile}`);
    }
    const status = await fetch(`${url}/`).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => 0,
    );
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const startupMs = performance.now() - started;
  const processes = wranglerProcesses(child.pid, port);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  return { name, url, port, startupMs, processes, stop };
}
