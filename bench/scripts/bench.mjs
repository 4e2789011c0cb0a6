// `npm run bench`: builds the app and the floor Workers as `vite build` builds the app
// (bench/vite.config.ts), runs each on its own socket of workerd (through Miniflare), drives each
// workload with autocannon in alternating windows, prints the figures, and records a full run in
// bench/history.json and BENCHMARKS.md's figures.
//   npm run bench                  every workload and figure, about 10 minutes; recorded
//   npm run bench -- --quick       a short smoke run (about 4 minutes), printed only
//   npm run bench -- --only=html-home,data-home   only these workloads, printed only
//   npm run bench -- --rate=150    a fixed request rate for both (CPU at equal load), printed only
//   npm run bench -- --traps       also the traps: the app under the ways a benchmark might run it
//   npm run bench -- --record      record a run that is printed only otherwise
//   npm run bench -- --note="…"    a note kept with the run (what changed, the machine's load)
//   npm run bench -- --against=<git ref>   also the app of <ref> (checked out in a temporary
//                                  worktree, `npm ci`, built by its own build: trees.mjs), measured
//                                  beside this tree's: /items HTML in the same alternating windows,
//                                  and the first /items on fresh starts. Issue 30: worker CPU of
//                                  /items HTML within 1.03x of <ref>'s, the first request no dearer.
//                                  `--only=html-items --against=<ref>` measures just that
//   npm run bench -- --first=15    only the first /items after start: 15 fresh starts each of the
//                                  app, the floor and the floor with a log line (and --against's
//                                  app), worker CPU and wall clock, printed only
//   npm run bench -- --report      rewrite BENCHMARKS.md's figures from bench/history.json, no run
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { RUNNERS, applyMigrations, firstRequests, root, startServer } from "./server.mjs";
import { buildTree, checkoutTree } from "./trees.mjs";
import { CONNECTIONS, measure, measureEach } from "./load.mjs";
import {
  WORKLOADS,
  CACHE_PAIRS,
  DATA_PAIRS,
  SHELL_PAIRS,
  availablePages,
  firstBytes,
  seedGuestbook,
  slowTimings,
  GUESTBOOK_ENTRIES,
} from "./workloads.mjs";
import { bodyBytes, javascriptPerPage, workerBundle } from "./sizes.mjs";
import { measureTraps } from "./traps.mjs";
import { machine, record, summary, writeBenchmarks } from "./report.mjs";
import { parseOptions } from "./cli.mjs";

const argv = process.argv.slice(2);
const options = parseOptions(import.meta.url, {
  quick: { type: "boolean", default: false },
  only: { type: "string" },
  rate: { type: "string" },
  traps: { type: "boolean", default: false },
  record: { type: "boolean", default: false },
  note: { type: "string" },
  report: { type: "boolean", default: false },
  against: { type: "string" },
  first: { type: "string" },
});
const log = (line) => console.log(`[bench] ${line}`);
if (options.report) {
  await writeBenchmarks();
  log("BENCHMARKS.md's figures rewritten from bench/history.json");
  process.exit(0);
}
const quick = options.quick;
const rate = Number(options.rate ?? 0);
const timing = {
  ...(quick
    ? { durationS: 3, warmupS: 1, rounds: 3, slowSamples: 2 }
    : { durationS: 10, warmupS: 3, rounds: 5, slowSamples: 5 }),
  rate,
  connections: CONNECTIONS,
};
const only = options.only?.split(",");
const unknown = only?.filter((id) => !WORKLOADS.some((w) => w.id === id));
if (unknown?.length) {
  console.error(`[bench] unknown workload ${unknown.join(", ")}: ${WORKLOADS.map((w) => w.id).join(", ")}`);
  process.exit(2);
}
const selected = WORKLOADS.filter((w) => !only || only.includes(w.id));
/** A dot per window, so a long run shows it is alive. */
const progress = (round, of) => process.stdout.write(round < of ? "." : ".\n");
/** Fresh starts of each Worker whose first request is timed (the median is reported). */
const FIRST_ROUNDS = options.first ? Number(options.first) : quick ? 1 : 7;
/** The workloads measured on the other tree too (--against), in the same windows as app and floor. */
const AGAINST = ["html-items"];
/** First bytes of a shell against a plain hit (SHELL_PAIRS): rounds, and requests each per round. */
const FIRST_BYTES = quick ? { rounds: 4, samples: 20 } : { rounds: 20, samples: 50 };
/** A workload by its id (or the workload itself). */
const byId = (workload) =>
  typeof workload === "string" ? WORKLOADS.find((w) => w.id === workload) : workload;

const tmp = await mkdtemp(path.join(os.tmpdir(), "verge-bench-"));
const servers = [];
const start = async (options) => {
  const server = await startServer({ logFile: path.join(tmp, `${options.name}.log`), ...options });
  servers.push(server);
  const cpu = Math.round(server.startupCpuMs);
  log(
    `${server.name}: first 200 after ${Math.round(server.startupMs)} ms (worker CPU ${cpu} ms) on ${server.url}`,
  );
  return server;
};
const stopAll = () => Promise.all(servers.splice(0).map((s) => s.stop()));
let other;
process.on("SIGINT", () =>
  stopAll().then(() => {
    other?.remove();
    process.exit(130);
  }),
);

try {
  log("building the Workers as `vite build` builds the app (bench/vite.config.ts)");
  /**
   * The app is the deployed worker plus the benchmark's /items pages (bench/workers/app-worker.tsx);
   * the floor writing the app's log line (floor-logged-worker.tsx) is for the first request only:
   * its first console call loads workerd's local console formatter, which the edge does not run.
   * The app's first request cost the same without its log line (2026-11-29): read it against the
   * plain floor.
   */
  const workers = await buildTree(root);
  if (options.against) {
    other = await checkoutTree(options.against, log);
    log(`building ${options.against}'s app with its own build`);
    other.workers = await buildTree(other.dir);
  }

  const appState = path.join(tmp, "app-state");
  const floorState = path.join(tmp, "floor-state");
  const oldState = path.join(tmp, "old-state");
  applyMigrations(appState);
  const appOptions = { name: "app", ...workers.app, state: appState };
  const floorOptions = { name: "floor", ...workers.floor, state: floorState };
  const oldOptions = other && { name: "old", ...other.workers.app, state: oldState };
  let app = await start(appOptions);
  const pages = await availablePages(app.url, ["/", "/guestbook", "/slow"]);
  if (!pages.has("/guestbook")) {
    log("/guestbook answers 404 (the example page is gone): its workloads are unavailable");
  } else if (!options.first && (options.traps || selected.some((w) => w.needs === "/guestbook"))) {
    log(`seeding ${GUESTBOOK_ENTRIES} guestbook entries through the sign action`);
    await seedGuestbook(app.url);
  }
  // The floor reads a copy of the seeded database; the app restarts so both start alike.
  await stopAll();
  await cp(appState, floorState, { recursive: true });
  if (other) await cp(appState, oldState, { recursive: true });
  log(
    `the first /items after start: ${FIRST_ROUNDS} fresh starts each of app, floor and the floor with a log line${other ? `, and ${options.against}'s app` : ""}, alternating`,
  );
  const floorLoggedOptions = { ...floorOptions, ...workers.floorLogged, name: "floorLogged" };
  const firstRequest = await firstRequests(
    [appOptions, floorOptions, floorLoggedOptions, ...(other ? [oldOptions] : [])].map((o) => ({
      ...o,
      logFile: path.join(tmp, `${o.name}-first.log`),
    })),
    FIRST_ROUNDS,
    "/items",
  );
  for (const [name, r] of Object.entries(firstRequest))
    log(
      `  ${name}: worker CPU ${r.cpuMs.toFixed(1)} ms, ${r.ms.toFixed(1)} ms wall clock; start-up before it ${r.startCpuMs.toFixed(1)} ms CPU (medians)`,
    );
  const { old: oldFirst, ...firstOfThisTree } = firstRequest;
  if (options.first) {
    // Each ratio of medians; the samples of each start are printed above the medians' lines.
    for (const [name, r] of Object.entries(firstRequest).filter(([name]) => name !== "app"))
      log(`  app over ${name}: ${(firstRequest.app.cpuMs / r.cpuMs).toFixed(2)}x worker CPU`);
    for (const [name, r] of Object.entries(firstRequest))
      log(`  ${name}'s starts, worker CPU ms: ${r.samples.map((s) => s.cpuMs.toFixed(1)).join(" ")}`);
    await stopAll();
    other?.remove();
    await rm(tmp, { recursive: true, force: true });
    process.exit(0);
  }
  app = await start(appOptions);
  const floor = await start(floorOptions);
  const old = other && (await start(oldOptions));

  const run = {
    ...machine(argv),
    note: options.note,
    quick,
    timing,
    startupMs: { app: app.startupMs, floor: floor.startupMs },
    builtBeforeStart: true,
    startupCpuMs: { app: app.startupCpuMs, floor: floor.startupCpuMs },
    firstRequest: firstOfThisTree,
    runtime: RUNNERS.direct,
    bytes: {},
    workloads: {},
    dataPairs: {},
    cachePairs: {},
    shellPairs: {},
    ...(other ? { against: { ref: options.against, commit: other.commit, firstRequest: oldFirst } } : {}),
  };
  for (const page of ["/items", "/", "/guestbook"].filter((p) => p === "/items" || pages.has(p))) {
    run.bytes[page] = {
      html: await bodyBytes(app.url + page),
      data: await bodyBytes(`${app.url}${page}?_data=1`, { headers: { "x-page-data": "1" } }),
      floorHtml: await bodyBytes(floor.url + page),
    };
  }
  // What a first load of each page fetches, as the app's documents ask for it.
  const javascript = await javascriptPerPage(
    app.url,
    ["/", "/guestbook"].filter((p) => pages.has(p)),
    path.dirname(path.dirname(workers.app.bundle)),
  );

  for (const workload of selected) {
    if (workload.needs && !pages.has(workload.needs)) {
      run.workloads[workload.id] = { label: workload.label, unavailable: true };
      log(`${workload.label}: unavailable`);
      continue;
    }
    const withOld = old && AGAINST.includes(workload.id);
    log(
      `${workload.label}: ${timing.warmupS} s warm-up, then ${timing.durationS} s each on app${withOld ? `, floor and ${options.against}'s app` : " and floor"} in ${timing.rounds} alternating windows`,
    );
    const [a, f, o] = await measure(withOld ? [app, floor, old] : [app, floor], workload, {
      ...timing,
      progress,
    });
    if (o)
      run.against.workloads = {
        ...run.against.workloads,
        [workload.id]: { label: workload.label, app: a, old: o },
      };
    for (const [name, r] of [["app", a], ["floor", f], ...(o ? [["old", o]] : [])])
      log(
        `  ${name}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, worker CPU ${r.cpuMs.worker.toFixed(2)} ms/req` +
          (r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ""),
      );
    // `shell` kept with the run: the same id may name a render in older runs (/guestbook).
    run.workloads[workload.id] = { label: workload.label, shell: workload.shell, app: a, floor: f };
  }

  // Page data against the HTML of the same page: measured above minutes apart, when the machine's
  // load may differ, so measured again on the app alone in alternating windows.
  for (const pair of DATA_PAIRS) {
    if (!run.workloads[pair.html]?.app || !run.workloads[pair.data]?.app) continue;
    const [html, data] = [pair.html, pair.data].map((id) => WORKLOADS.find((w) => w.id === id));
    log(`${pair.page}: HTML against page data on the app, in ${timing.rounds} alternating windows`);
    const [h, d] = await measureEach(
      [
        { server: app, workload: html },
        { server: app, workload: data },
      ],
      { ...timing, progress },
    );
    run.dataPairs[pair.page] = { html: h, data: d };
    log(
      `  HTML ${Math.round(h.rps)} req/s ${h.cpuMs.worker.toFixed(2)} ms/req, page data ${Math.round(d.rps)} req/s ` +
        `${d.cpuMs.worker.toFixed(2)} ms/req: ${(d.rps / h.rps).toFixed(2)}x req/s, ${(d.cpuMs.worker / h.cpuMs.worker).toFixed(2)}x CPU`,
    );
  }

  // A cache hit against a render of the same page (or another hit), on the app alone in
  // alternating windows.
  for (const pair of CACHE_PAIRS) {
    if (!run.workloads[pair.requires ?? pair.render]?.app) continue;
    log(`${pair.label}, in ${timing.rounds} alternating windows`);
    const subjects = [pair.render, pair.hit].map((workload) => ({ server: app, workload: byId(workload) }));
    if (pair.floor) subjects.push(...subjects.map(({ workload }) => ({ server: floor, workload })));
    const [r, h, floorR, floorH] = await measureEach(subjects, { ...timing, progress });
    run.cachePairs[pair.key] = {
      render: r,
      hit: h,
      ...(pair.floor ? { floor: { render: floorR, hit: floorH } } : {}),
    };
    const cpu = (a, b) =>
      `${a.cpuMs.worker.toFixed(2)} then ${b.cpuMs.worker.toFixed(2)} ms/req: ${(b.cpuMs.worker / a.cpuMs.worker).toFixed(2)}x` +
      (a.non2xx || b.non2xx ? `, ${a.non2xx + b.non2xx} non-2xx` : "");
    log(`  app ${cpu(r, h)}`);
    if (pair.floor) log(`  floor ${cpu(floorR, floorH)}`);
  }

  // A stored shell resumed per visitor against a plain hit of the page without its hole: worker
  // CPU in alternating windows, then the first byte of each, one request at a time.
  for (const pair of SHELL_PAIRS) {
    if (!run.workloads[pair.shell]?.app) continue;
    const workloads = [pair.plain, byId(pair.shell)];
    log(`${pair.label}, in ${timing.rounds} alternating windows`);
    const [plain, shell] = await measureEach(
      workloads.map((workload) => ({ server: app, workload })),
      { ...timing, progress },
    );
    log(`  first bytes: ${FIRST_BYTES.rounds} alternating rounds of ${FIRST_BYTES.samples} requests each`);
    const [plainFirst, shellFirst] = await firstBytes(app.url, workloads, FIRST_BYTES);
    run.shellPairs[pair.key] = {
      plain: { ...plain, firstByte: plainFirst },
      shell: { ...shell, firstByte: shellFirst },
    };
    log(
      `  worker CPU ${plain.cpuMs.worker.toFixed(2)} then ${shell.cpuMs.worker.toFixed(2)} ms/req ` +
        `(${(shell.cpuMs.worker / plain.cpuMs.worker).toFixed(2)}x); first byte, median ` +
        `${plainFirst.median.toFixed(2)} then ${shellFirst.median.toFixed(2)} ms ` +
        `(${(shellFirst.median / plainFirst.median).toFixed(2)}x)`,
    );
  }

  if (pages.has("/slow")) {
    log(`/slow: ${timing.slowSamples} requests, time to first and last byte`);
    run.slow = await slowTimings(app.url, timing.slowSamples);
  }
  await stopAll();

  // The traps run `wrangler dev`, the least steady of the runners: a failure there keeps the run.
  if (options.traps)
    run.traps = await measureTraps({ app: workers.app, appState, timing, start, stopAll, log, pages }).catch(
      async (error) => {
        log(`the traps failed, the run is kept without them: ${error.message}`);
        await stopAll();
        return undefined;
      },
    );

  log("weighing the JavaScript per page and the worker bundle (dist/verge/index.js: `vite build`)");
  run.javascript = javascript;
  run.workerBundle = await workerBundle();

  console.log("\n" + summary(run));
  if ((!quick && !only && !rate) || options.record) {
    await record(run);
    log("recorded in bench/history.json; BENCHMARKS.md shows the latest full run");
  }
} finally {
  await stopAll();
  other?.remove();
  await rm(tmp, { recursive: true, force: true });
}
