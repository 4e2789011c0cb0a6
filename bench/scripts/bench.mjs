// `npm run bench`: builds, runs the app and the floor worker on workerd (directly, through
// Miniflare, by default), drives each workload from this process with autocannon, and records
// the figures in BENCHMARKS.md.
//   npm run bench                 default run (a few minutes), recorded
//   npm run bench -- --quick      short smoke run, printed only (add --record to keep it)
//   npm run bench -- --traps      also measures the known traps (development React, default logs)
//   npm run bench -- --rate=150   a fixed request rate for both servers (CPU at equal load), printed only
//   npm run bench -- --only=html-home,data-home   only these workloads, printed only (--record keeps it)
//   npm run bench -- --runner=routed     workerd directly, behind Miniflare's entry Worker and the
//                                 local asset router (how passes 3 to 5 measured), printed only
//   npm run bench -- --runner=wrangler   through wrangler's dev server (proxy Worker, wrangler reading
//                                 every log line) instead of workerd directly, printed only
//   npm run bench -- --inspector  through `wrangler dev` (DevTools inspector attached), printed only
//   npm run bench -- --title="…"  the run's name in BENCHMARKS.md; --help prints this
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ENV, applyMigrations, root, startServer } from "./server.mjs";
import { measure, measureEach } from "./load.mjs";
import {
  WORKLOADS,
  DATA_PAIRS,
  availablePages,
  seedGuestbook,
  slowTimings,
  GUESTBOOK_ENTRIES,
} from "./workloads.mjs";
import { bodyBytes, javascriptPerPage, workerBundle } from "./sizes.mjs";
import { measureTraps } from "./traps.mjs";
import { machine, record } from "./results.mjs";
import { summary } from "./summary.mjs";
import { parseOptions } from "./cli.mjs";

const argv = process.argv.slice(2);
const options = parseOptions(import.meta.url, {
  quick: { type: "boolean", default: false },
  record: { type: "boolean", default: false },
  traps: { type: "boolean", default: false },
  inspector: { type: "boolean", default: false },
  rate: { type: "string" },
  only: { type: "string" },
  runner: { type: "string", default: "direct" },
  /** A name for the run in BENCHMARKS.md, e.g. --title="after the performance pass". */
  title: { type: "string" },
});
const quick = options.quick;
const rate = Number(options.rate ?? 0);
const timing = {
  ...(quick
    ? { durationS: 3, warmupS: 1, rounds: 3, slowSamples: 2 }
    : { durationS: 10, warmupS: 3, rounds: 5, slowSamples: 5 }),
  rate,
};
const only = options.only?.split(",");
const title = options.title;
/** How the workers run (scripts/bench/server.mjs): "direct" (workerd through Miniflare), "routed", "wrangler", "inspector". */
const runner = options.inspector ? "inspector" : options.runner;
const RUNTIMES = {
  direct:
    "workerd directly (Miniflare), the deploy bundle, the Worker on its own socket, no proxy or inspector",
  routed:
    "workerd directly (Miniflare), the deploy bundle, behind Miniflare's entry Worker and asset router, no proxy or inspector",
  wrangler: "wrangler startWorker (proxy Worker in front), no inspector",
  inspector: "wrangler dev (DevTools inspector attached)",
};
if (!Object.hasOwn(RUNTIMES, runner)) {
  console.error(
    `[bench] unknown --runner=${runner}: use direct (the default), routed, wrangler or --inspector`,
  );
  process.exit(2);
}
const selected = WORKLOADS.filter((w) => !only || only.includes(w.id));
const log = (line) => console.log(`[bench] ${line}`);
/** A dot per round, so a long run shows it is alive. */
const progress = (round, of) => process.stdout.write(round < of ? "." : ".\n");

const appConfig = path.join(root, "wrangler.toml");
const floorConfig = path.join(root, "bench/workers/wrangler.toml");
const tmp = await mkdtemp(path.join(os.tmpdir(), "verge-bench-"));
const servers = [];
const start = async (options) => {
  const server = await startServer({ logFile: path.join(tmp, `${options.name}.log`), runner, ...options });
  servers.push(server);
  log(`${server.name}: first 200 after ${Math.round(server.startupMs)} ms on ${server.url}`);
  return server;
};
const stopAll = () => Promise.all(servers.splice(0).map((s) => s.stop()));
process.on("SIGINT", () => stopAll().then(() => process.exit(130)));

try {
  log("building the client (production)");
  const build = spawnSync(process.execPath, ["scripts/build-client.mjs"], {
    cwd: root,
    env: ENV,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the client build failed");

  const appState = path.join(tmp, "app-state");
  const floorState = path.join(tmp, "floor-state");
  applyMigrations(appState);
  let app = await start({ name: "app", config: appConfig, state: appState });
  const pages = await availablePages(app.url, ["/", "/guestbook", "/slow"]);
  if (!pages.has("/guestbook")) {
    log("/guestbook answers 404 (the example page is gone): its workloads are unavailable");
  } else if (selected.some((w) => w.needs === "/guestbook")) {
    log(`seeding ${GUESTBOOK_ENTRIES} guestbook entries through the sign action`);
    await seedGuestbook(app.url);
  }
  // The floor reads a copy of the seeded database; the app restarts so both start alike.
  await stopAll();
  await cp(appState, floorState, { recursive: true });
  app = await start({ name: "app", config: appConfig, state: appState });
  const floor = await start({ name: "floor", config: floorConfig, state: floorState });

  const run = {
    ...machine(argv),
    title,
    quick,
    timing,
    startupMs: { app: app.startupMs, floor: floor.startupMs },
    runtime: RUNTIMES[runner],
  };
  run.bytes = {};
  for (const page of ["/", "/guestbook"].filter((p) => pages.has(p))) {
    run.bytes[page] = {
      html: await bodyBytes(app.url + page),
      data: await bodyBytes(`${app.url}${page}?_data=1`, { headers: { "x-page-data": "1" } }),
      floorHtml: await bodyBytes(floor.url + page),
    };
  }

  run.workloads = {};
  for (const workload of selected) {
    if (workload.needs && !pages.has(workload.needs)) {
      run.workloads[workload.id] = { label: workload.label, unavailable: true };
      log(`${workload.label}: unavailable`);
      continue;
    }
    const entry = { label: workload.label };
    const servers = workload.floor ? [app, floor] : [app];
    log(
      `${workload.label}: ${timing.warmupS} s warm-up, then ${timing.durationS} s on ${servers.map((s) => s.name).join(" and ")} in ${timing.rounds} alternating windows`,
    );
    const results = await measure(servers, workload, { ...timing, progress });
    servers.forEach((server, i) => {
      const result = (entry[server.name] = results[i]);
      log(
        `  ${server.name}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
          `worker CPU ${result.cpuMs.worker.toFixed(2)} ms/req (` +
          // The direct runners have no proxy process.
          (Number.isFinite(result.cpuMs.proxy) ? `proxy ${result.cpuMs.proxy.toFixed(2)}, ` : "") +
          `Node ${result.cpuMs.node.toFixed(2)})` +
          (result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ""),
      );
    });
    run.workloads[workload.id] = entry;
  }

  // Page data against the HTML of the same page (a target): measured above minutes apart, so
  // measured again on the app alone in alternating windows, as the app is against the floor.
  run.dataPairs = {};
  for (const pair of DATA_PAIRS) {
    // Only pairs whose two workloads were measured above (selected, and their page present).
    if (!run.workloads[pair.html]?.app || !run.workloads[pair.data]?.app) continue;
    const [html, data] = [pair.html, pair.data].map((id) => WORKLOADS.find((w) => w.id === id));
    log(
      `${pair.page}: HTML against page data on the app, ${timing.warmupS} s warm-up, then ${timing.durationS} s each in ${timing.rounds} alternating windows`,
    );
    const [h, d] = await measureEach(
      [
        { server: app, workload: html },
        { server: app, workload: data },
      ],
      { ...timing, progress },
    );
    run.dataPairs[pair.page] = { html: h, data: d };
    log(
      `  HTML ${Math.round(h.rps)} req/s, page data ${Math.round(d.rps)} req/s: ${(d.rps / h.rps).toFixed(2)}x`,
    );
  }

  if (pages.has("/slow")) {
    log(`/slow: ${timing.slowSamples} requests, time to first and last byte`);
    run.slow = await slowTimings(app.url, timing.slowSamples);
  }
  await stopAll();

  if (options.traps)
    run.traps = await measureTraps({ config: appConfig, appState, timing, start, stopAll, log, pages });

  log("measuring JavaScript per page and the worker bundle (as npm run check:deploy builds it)");
  run.javascript = await javascriptPerPage(["/", "/guestbook"]);
  run.workerBundle = await workerBundle();

  console.log("\n" + summary(run));
  if ((!quick && !only && !rate && runner === "direct") || options.record) {
    await record(run);
    log("recorded in BENCHMARKS.md, bench/history.json and bench/ratios.svg");
  }
} finally {
  await stopAll();
  await rm(tmp, { recursive: true, force: true });
}
