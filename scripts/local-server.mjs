// What `npm run dev`, `npm run preview`, the benchmark and the browser tests share to run the
// worker locally: a free loopback port, the `wrangler dev` command line, and the steps before it.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const wrangler = path.join(root, "node_modules/.bin/wrangler");

/**
 * Every local `wrangler dev` of the worker sets LOCAL_SERVER: its proxy is a worker that streams
 * request bodies on, so a refused body is read and dropped behind the answer, never cut off
 * (src/server/local-body-drain.ts).
 */
export const LOCAL_SERVER_VARS = ["--var", "LOCAL_SERVER:1"];

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Arguments for `wrangler dev` on 127.0.0.1:`port` with its local state (D1) in `persistTo`,
 * without the interactive hotkeys; `config` picks another wrangler.toml, `extra` goes last.
 */
export function wranglerDevArgs({ port, persistTo, config, extra = [] }) {
  return [
    "dev",
    ...(config ? ["--config", config] : []),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
    ...LOCAL_SERVER_VARS,
    ...extra,
  ];
}

/** Runs one step before the server (its output shown); exits with its status when it fails. */
export function step(name, label, command, args, env = process.env) {
  console.log(`[${name}] ${label}`);
  // No stdin: wrangler then applies local migrations without asking to confirm.
  const result = spawnSync(command, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) {
    console.error(`[${name}] failed: ${label}. Fix the error above and run \`npm run ${name}\` again.`);
    process.exit(result.status ?? 1);
  }
}

/** Applies the D1 migrations locally, to the state `wrangler dev` will use (its `--persist-to`). */
export function migrateLocally(name, wranglerArgs) {
  const at = wranglerArgs.indexOf("--persist-to");
  const persistTo = at === -1 ? [] : wranglerArgs.slice(at, at + 2);
  step(name, "applying D1 migrations to the local database", wrangler, [
    "d1",
    "migrations",
    "apply",
    "DB",
    "--local",
    ...persistTo,
  ]);
}

/**
 * Runs `children` (each [command, args, env, watch]) until one exits or a signal comes, then stops
 * the rest; the process exits with the first one's status. `watch.onMessage` gets what the child
 * sends over IPC, `watch.onLine` each line it prints (still printed).
 */
export function runTogether(children, { onStop = () => {} } = {}) {
  const running = children.map(([command, args, env = process.env, watch = {}]) => {
    const stdio = [
      "inherit",
      watch.onLine ? "pipe" : "inherit",
      "inherit",
      ...(watch.onMessage ? ["ipc"] : []),
    ];
    const child = spawn(command, args, { cwd: root, stdio, env });
    if (watch.onMessage) child.on("message", watch.onMessage);
    if (watch.onLine) {
      let pending = "";
      child.stdout.on("data", (chunk) => {
        process.stdout.write(chunk);
        const lines = (pending + chunk).split("\n");
        pending = lines.pop();
        for (const line of lines) watch.onLine(line);
      });
    }
    return child;
  });
  let exiting = false;
  const stop = (code) => {
    if (exiting) return;
    exiting = true;
    for (const child of running) child.kill("SIGTERM");
    onStop();
    process.exitCode = code;
  };
  for (const child of running) child.on("exit", (code) => stop(code ?? 0));
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(0));
}

export { wrangler as wranglerBin };
