// Starts a Worker for the benchmark on a free loopback port, with its own local state, and stops it.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { threadsCpuMs, workerProcesses } from "./proc.mjs";

export const root = path.resolve(import.meta.dirname, "../..");
const wrangler = path.join(root, "node_modules/.bin/wrangler");

/**
 * NODE_ENV=production: `wrangler dev` bundles React's development build otherwise, several times
 * slower and not what deploys. The rest keeps wrangler from phoning home or colouring output.
 */
export const ENV = { ...process.env, NODE_ENV: "production", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };

/** How a Worker can run: the benchmark measures `direct`; the other two are traps (traps.mjs). */
export const RUNNERS = {
  direct: "workerd through Miniflare, the deploy bundle, the Worker on its own socket",
  routed: "the same behind Miniflare's entry Worker and the local asset router",
  "wrangler-dev": "`wrangler dev` (its proxy Worker, inspector and Node reading the log lines)",
};

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

/** `wrangler dev` of the built Worker `config` (its output wrangler.json) on 127.0.0.1:`port`. */
function wranglerDevArgs({ port, persistTo, config, extra = [] }) {
  return [
    ...["dev", "--config", config, "--ip", "127.0.0.1", "--port", String(port)],
    ...["--persist-to", persistTo, "--show-interactive-dev-session=false", ...extra],
  ];
}

/** Applies migrations/ to the local D1 in `state`. */
export function applyMigrations(state) {
  const dir = path.join(root, "migrations");
  if (!existsSync(dir) || !readdirSync(dir).some((f) => f.endsWith(".sql"))) return;
  const args = ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state];
  const result = spawnSync(wrangler, args, { cwd: root, env: ENV, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`applying migrations failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * Runs `bundle` (trees.mjs) with the bindings of `config` and its state in `state`
 * (start-direct.mjs), or `wrangler dev` of `config` (a built Worker's wrangler.json) at `logLevel`
 * in `env`, and waits for the first 200 from `probe`, or with `probe: null` only until it listens
 * (the first request is then the caller's). Its output goes to `logFile`.
 */
export async function startServer({
  name,
  config,
  bundle,
  probe = "/",
  state,
  logFile,
  runner = "direct",
  env = ENV,
  logLevel = "warn",
}) {
  const port = await freePort();
  const [command, args] =
    runner === "wrangler-dev"
      ? [
          wrangler,
          wranglerDevArgs({
            port,
            persistTo: state,
            config,
            // Its own inspector port: two at once (--traps) would both ask for 9229.
            extra: ["--log-level", logLevel, "--inspector-port", String(await freePort())],
          }),
        ]
      : [
          process.execPath,
          [
            path.join(import.meta.dirname, "start-direct.mjs"),
            config,
            bundle,
            state,
            String(port),
            ...(runner === "routed" ? ["--routed"] : []),
          ],
        ];
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const url = `http://127.0.0.1:${port}`;
  // start-direct.mjs says when its Worker listens (wrangler dev is always probed).
  const listening = { done: false, said: "" };
  child.stdout.on("data", (chunk) => {
    if (listening.done) return;
    listening.said += chunk;
    listening.done ||= listening.said.includes("ready on ");
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await new Promise((resolve) => out.end(resolve));
      const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-20).join("\n");
      throw new Error(`${name}: the worker exited early:\n${tail}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`${name}: no answer from ${url}${probe ?? "/"} within 120 s; see ${logFile}`);
    }
    if (probe === null) {
      if (listening.done) break;
    } else {
      const status = await fetch(url + probe).then(
        (r) => r.arrayBuffer().then(() => r.status),
        () => 0,
      );
      if (status === 200) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const startupMs = performance.now() - started;
  const processes = workerProcesses(child.pid, port);
  // What starting cost the Worker's own process: loading the bundle, and the probe's request if any.
  const startupCpuMs = threadsCpuMs(processes.worker);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  return { name, url, port, startupMs, startupCpuMs, processes, stop };
}

/**
 * The first request after start: each of `servers` (startServer's options) started `rounds`
 * times afresh, in alternating order, and asked for `path` once it listens. The median of its
 * wall clock and of its Worker's process CPU over that request, and of that process's CPU from
 * its start until it listened (start-up: what moves there is not in the request), per server name.
 */
export async function firstRequests(servers, rounds, path) {
  const samples = Object.fromEntries(servers.map(({ name }) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const options of round % 2 ? [...servers].reverse() : servers) {
      const server = await startServer({ ...options, probe: null });
      try {
        const before = threadsCpuMs(server.processes.worker);
        const started = performance.now();
        const response = await fetch(server.url + path);
        await response.arrayBuffer();
        const ms = performance.now() - started;
        const cpuMs = threadsCpuMs(server.processes.worker) - before;
        if (response.status !== 200) throw new Error(`${options.name}: ${path} answered ${response.status}`);
        samples[options.name].push({ ms, cpuMs, startCpuMs: server.startupCpuMs });
      } finally {
        await server.stop();
      }
    }
  }
  const median = (list, key) => list.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [
      name,
      {
        ms: median(list, "ms"),
        cpuMs: median(list, "cpuMs"),
        startCpuMs: median(list, "startCpuMs"),
        samples: list,
      },
    ]),
  );
}
