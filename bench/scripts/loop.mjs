// `npm run bench:loop`: the handler's own cost, without HTTP. Runs bench/workers/loop-worker.tsx (the
// app and the floor, bundled with the app's wrangler.toml as deployed) on workerd through
// Miniflare; each request there calls one target's fetch `--n` times on one page. CPU per call is
// the runtime process's CPU from /proc over that request, in `--rounds` alternating rounds (the
// median is printed). Steadier than the HTTP figures, so it can attribute differences of 0.01 ms.
//   npm run bench:loop -- [--path=/] [--n=4000] [--rounds=10] [--targets=app,app-quiet,floor]
//   npm run bench:loop -- --data      the page's data (X-Page-Data: 1, ?_data=1) instead of its HTML
//   npm run bench:loop -- --profile   also a V8 CPU profile of each target: functions by self time
//   npm run bench:loop -- --heap      also a sampling heap profile: bytes allocated per call, by function
// With a profiler attached, each console.log is also sent to it: the log line costs several
// times more than in the timed rounds; the app-quiet target shows the rest without it.
// Pages that read D1 see an empty, migrated database (BENCH_STATE=<dir> uses another state dir).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildDeployBundle } from "../../scripts/deploy-bundle.mjs";
import { useQuietWorkerd } from "./quiet-workerd.mjs";
import { cpuMs, wranglerProcesses } from "./proc.mjs";
import { connectInspector } from "./inspector.mjs";
import { parseOptions } from "./cli.mjs";
import { applyMigrations, root } from "./server.mjs";
import { freePort } from "../../scripts/local-server.mjs";

const options = parseOptions(import.meta.url, {
  path: { type: "string", default: "/" },
  n: { type: "string", default: "4000" },
  rounds: { type: "string", default: "10" },
  targets: { type: "string", default: "app,app-quiet,floor" },
  profile: { type: "boolean", default: false },
  heap: { type: "boolean", default: false },
  data: { type: "boolean", default: false },
});
const n = Number(options.n);
const rounds = Number(options.rounds);
const targets = options.targets.split(",");
const log = (line) => console.log(`[loop] ${line}`);

const tmp = mkdtempSync(path.join(os.tmpdir(), "verge-loop-"));
const state = process.env.BENCH_STATE ?? path.join(tmp, "state");
if (!process.env.BENCH_STATE) applyMigrations(state);
const config = path.join(root, "wrangler.toml");
const profiling = options.profile || options.heap;
// Profiles need names: then the bundle is not minified (which hardly changes what it costs).
log(
  `bundling bench/workers/loop-worker.tsx with wrangler.toml as npm run check:deploy does${profiling ? ", not minified" : ""}`,
);
const script = path.join(root, "bench/workers/loop-worker.tsx");
const [bundle] = buildDeployBundle(tmp, { config, script, minify: !profiling });
useQuietWorkerd(tmp);
const inspectorPort = profiling ? await freePort() : undefined;
const mf = new Miniflare({
  host: "127.0.0.1",
  port: 0,
  inspectorPort,
  defaultPersistRoot: path.join(state, "v3"),
  handleRuntimeStdio: (stdout, stderr) => (stdout.resume(), stderr.pipe(process.stderr)),
  workers: [
    {
      ...unstable_getMiniflareWorkerOptions(config).workerOptions,
      name: "loop",
      modules: true,
      modulesRoot: tmp,
      scriptPath: bundle,
    },
  ],
});

try {
  const url = await mf.ready;
  // Miniflare runs in this process: its one workerd child runs the loop Worker.
  const { worker: workerd } = wranglerProcesses(process.pid, url.port);
  const run = async (target, count) => {
    const response = await fetch(
      `${url}?target=${target}&n=${count}&path=${encodeURIComponent(options.path)}${options.data ? "&data=1" : ""}`,
    );
    if (!response.ok) throw new Error(`${target}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  for (const target of targets)
    log(`${target}: ${(await run(target, 300)).bytesPerRequest} bytes per call (warm-up)`);

  const perCall = Object.fromEntries(targets.map((t) => [t, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of round % 2 ? [...targets].reverse() : targets) {
      const before = cpuMs(workerd);
      await run(target, n);
      perCall[target].push((cpuMs(workerd) - before) / n);
    }
    process.stdout.write(round + 1 < rounds ? "." : ".\n");
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(perCall[targets.at(-1)]);
  log(
    `${options.path}${options.data ? " (page data)" : ""}, ${n} calls per round, ${rounds} rounds: process CPU per call, median (all rounds)`,
  );
  for (const target of targets) {
    const m = median(perCall[target]);
    const all = perCall[target].map((x) => x.toFixed(3)).join(" ");
    log(`  ${target.padEnd(10)} ${m.toFixed(3)} ms  ${(m / base).toFixed(2)}x ${targets.at(-1)}  (${all})`);
  }
  if (inspectorPort) await profiles(inspectorPort, run);
} finally {
  await mf.dispose();
  rmSync(tmp, { recursive: true, force: true });
}

/** Self time (or allocated bytes) per function and call, for each target, biggest differences first. */
async function profiles(port, run) {
  const { send, close } = await connectInspector(port);
  const nameOf = ({ functionName, url, lineNumber }) =>
    `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""}`.trim();
  const tables = {};
  if (options.profile) {
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: 50 });
    tables["CPU self time, µs per call"] = {};
    for (const t of targets) {
      await send("Profiler.start");
      await run(t, n);
      const { profile } = await send("Profiler.stop");
      const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
      const self = new Map();
      profile.samples.forEach((sample, i) => {
        const key = nameOf(nodes.get(sample).callFrame);
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / n);
      });
      tables["CPU self time, µs per call"][t] = self;
    }
  }
  if (options.heap) {
    await send("HeapProfiler.enable");
    tables["bytes allocated per call"] = {};
    for (const t of targets) {
      await send("HeapProfiler.startSampling", {
        samplingInterval: 128,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      await run(t, n);
      const { profile } = await send("HeapProfiler.stopSampling");
      const self = new Map();
      const walk = (node) => {
        const key = nameOf(node.callFrame);
        self.set(key, (self.get(key) ?? 0) + node.selfSize / n);
        node.children.forEach(walk);
      };
      walk(profile.head);
      tables["bytes allocated per call"][t] = self;
    }
  }
  close();
  for (const [title, byTarget] of Object.entries(tables)) {
    const total = (t) => [...byTarget[t].values()].reduce((a, b) => a + b, 0);
    log(`${title}: ${targets.map((t) => `${t} ${total(t).toFixed(1)}`).join(", ")}; largest differences:`);
    const keys = new Set(targets.flatMap((t) => [...byTarget[t].keys()]));
    const rows = [...keys].map((key) => ({ key, values: targets.map((t) => byTarget[t].get(key) ?? 0) }));
    const spread = ({ values }) => Math.max(...values) - Math.min(...values);
    rows.sort((a, b) => spread(b) - spread(a));
    log(`  ${targets.map((t) => t.padStart(10)).join(" ")}  function`);
    for (const { key, values } of rows.slice(0, 25)) {
      log(`  ${values.map((v) => v.toFixed(1).padStart(10)).join(" ")}  ${key.slice(0, 100)}`);
    }
  }
}
