// The traps, measured (`--traps`): what the same HTML costs when a benchmark runs the Worker the
// easy ways, against the Worker on its own socket as the benchmark measures it.
import { cp } from "node:fs/promises";
import path from "node:path";
import { measure } from "./load.mjs";
import { WORKLOADS } from "./workloads.mjs";

/**
 * Each way to run the app, first the one the benchmark measures (the ratios are to it). `wrangler
 * dev` runs the same bundle, from the wrangler.json Vite writes beside it. (`npm run dev` is Vite's
 * dev server since the move to Vite: development React, not measured here.)
 */
const VARIANTS = [
  { name: "the Worker on its own socket (how the benchmark measures)", runner: "direct" },
  { name: "behind Miniflare's entry Worker and asset router", runner: "routed" },
  { name: "`wrangler dev` of the built Worker, --log-level warn", runner: "wrangler-dev", built: true },
];

/**
 * Runs one HTML workload on each variant, in alternating windows as the app against the floor.
 * Each reads its own copy of the seeded state in `appState`; `app` is the built app (trees.mjs).
 */
export async function measureTraps({ app, appState, timing, start, stopAll, log, pages }) {
  const id = pages.has("/guestbook") ? "html-guestbook-render" : "html-home";
  const workload = WORKLOADS.find((w) => w.id === id);
  log(`traps: ${workload.label} on ${VARIANTS.length} ways of running the app, in alternating windows`);
  const servers = [];
  for (const [i, variant] of VARIANTS.entries()) {
    const state = `${appState}-trap-${i}`;
    await cp(appState, state, { recursive: true });
    const { built, ...options } = variant;
    const config = built ? path.join(path.dirname(app.bundle), "wrangler.json") : app.config;
    servers.push(await start({ ...options, name: `trap-${i}`, ...app, config, state }));
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
