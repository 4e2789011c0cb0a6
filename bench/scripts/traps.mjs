// The traps, measured (`--traps`): what the same HTML costs when a benchmark runs the Worker the
// easy ways, against the Worker on its own socket as the benchmark measures it.
import { cp } from "node:fs/promises";
import { ENV } from "./server.mjs";
import { measure } from "./load.mjs";
import { WORKLOADS } from "./workloads.mjs";

const { NODE_ENV: _, ...withoutNodeEnv } = ENV;

/** Each way to run the app, first the one the benchmark measures (the ratios are to it). */
const VARIANTS = [
  { name: "the Worker on its own socket (how the benchmark measures)", runner: "direct" },
  { name: "behind Miniflare's entry Worker and asset router", runner: "routed" },
  { name: "`wrangler dev`, NODE_ENV=production, --log-level warn", runner: "wrangler-dev" },
  {
    name: "`wrangler dev` as `npm run dev` runs it: development React, a line per request",
    runner: "wrangler-dev",
    env: withoutNodeEnv,
    logLevel: "info",
  },
];

/**
 * Runs one HTML workload on each variant, in alternating windows as the app against the floor.
 * Each reads its own copy of the seeded state in `appState`.
 */
export async function measureTraps({ config, appState, timing, start, stopAll, log, pages }) {
  const id = pages.has("/guestbook") ? "html-guestbook" : "html-home";
  const workload = WORKLOADS.find((w) => w.id === id);
  log(`traps: ${workload.label} on ${VARIANTS.length} ways of running the app, in alternating windows`);
  const servers = [];
  for (const [i, variant] of VARIANTS.entries()) {
    const state = `${appState}-trap-${i}`;
    await cp(appState, state, { recursive: true });
    servers.push(await start({ ...variant, name: `trap-${i}`, config, state }));
  }
  const results = await measure(servers, workload, { ...timing, progress: null });
  await stopAll();
  const rows = results.map((r, i) => ({
    name: VARIANTS[i].name,
    rps: r.rps,
    workerCpuMs: r.cpuMs.worker,
    // Wrangler's proxy workerd and Node (Miniflare's, idle here, when run directly).
    otherCpuMs: (Number.isFinite(r.cpuMs.proxy) ? r.cpuMs.proxy : 0) + r.cpuMs.node,
  }));
  return { workload: workload.label, rows };
}
