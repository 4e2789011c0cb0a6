// Profiles the worker under one workload through `wrangler dev` (the profiler needs its
// inspector): records a V8 CPU profile of the Worker's isolate while autocannon drives load, and
// prints the functions with the most self time (the .cpuprofile is kept for Chrome DevTools).
//   node --experimental-websocket scripts/bench/profile.mjs [--path=/] [--seconds=5] [--data] [--floor]
//   --data     the page's data (X-Page-Data: 1) instead of its HTML
//   --floor    the floor worker instead of the app
// BENCH_STATE=<dir> uses that state dir (a seeded guestbook) instead of an empty, migrated one.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { applyMigrations, root, startServer } from "./server.mjs";
import { freePort } from "../../scripts/local-server.mjs";
import { measure } from "./load.mjs";
import { connectInspector } from "./inspector.mjs";
import { parseOptions } from "./cli.mjs";

const options = parseOptions(import.meta.url, {
  path: { type: "string", default: "/" },
  seconds: { type: "string", default: "5" },
  floor: { type: "boolean", default: false },
  data: { type: "boolean", default: false },
});
const { path: target, seconds, floor, data } = options;
const tmp = await mkdtemp(path.join(os.tmpdir(), "verge-profile-"));
const state = process.env.BENCH_STATE ?? path.join(tmp, "state");
if (!process.env.BENCH_STATE) applyMigrations(state);
const inspectorPort = await freePort();
const server = await startServer({
  name: floor ? "floor" : "app",
  config: path.join(root, floor ? "bench/workers/wrangler.toml" : "wrangler.toml"),
  state,
  logFile: path.join(tmp, "wrangler.log"),
  runner: "inspector",
  extraArgs: ["--inspector-port", String(inspectorPort)],
});
try {
  const { send, close } = await connectInspector(inspectorPort);
  const workload = { path: target, headers: data ? { "x-page-data": "1" } : {} };
  await measure([server], workload, { durationS: 2, warmupS: 1, rounds: 1 });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 100 });
  await send("Profiler.start");
  const [result] = await measure([server], workload, { durationS: Number(seconds), warmupS: 0, rounds: 1 });
  const { profile } = await send("Profiler.stop");
  const file = path.join(os.tmpdir(), `verge-${floor ? "floor" : "app"}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  // Self time per source line, with the line's text so minified or bundled code reads.
  await send("Debugger.enable");
  const sources = new Map();
  const lineOf = async ({ scriptId, lineNumber }) => {
    if (scriptId === "0" || lineNumber < 0) return "";
    if (!sources.has(scriptId)) {
      const source = await send("Debugger.getScriptSource", { scriptId });
      sources.set(scriptId, (source?.scriptSource ?? "").split("\n"));
    }
    return (sources.get(scriptId)[lineNumber] ?? "").trim().slice(0, 90);
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((nodeId, i) => {
    const frame = byId.get(nodeId).callFrame;
    const key = `${frame.functionName || "(anonymous)"}:${frame.scriptId}:${frame.lineNumber}`;
    const entry = self.get(key) ?? { frame, us: 0 };
    entry.us += profile.timeDeltas[i + 1] ?? 0;
    self.set(key, entry);
  });
  const total = [...self.values()].reduce((sum, e) => sum + e.us, 0);
  console.log(
    `${result.requests} requests, worker CPU ${result.cpuMs.worker.toFixed(2)} ms/req; profile in ${file}`,
  );
  for (const { frame, us } of [...self.values()].sort((a, b) => b.us - a.us).slice(0, 30)) {
    const share = `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000 / result.requests).toFixed(3)} ms/req`;
    console.log(
      `${share}  ${frame.functionName || "(anonymous)"} ${frame.url}:${frame.lineNumber + 1}  ${await lineOf(frame)}`,
    );
  }
  close();
} finally {
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}
