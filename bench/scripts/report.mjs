// A run as Markdown (ratios to the floor, the targets, bytes), its record in bench/history.json,
// and the figures of BENCHMARKS.md, rewritten from that history.
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as prettier from "prettier";
import { CACHE_PAIRS, DATA_PAIRS, SHELL_PAIRS } from "./workloads.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const historyFile = path.join(root, "bench/history.json");
const benchmarksFile = path.join(root, "BENCHMARKS.md");
const START = "<!-- figures: written by `npm run bench` from bench/history.json -->";
const END = "<!-- /figures -->";
const KB = 1024;

export function machine(argv) {
  const args = argv.filter((arg, i) => !arg.startsWith("--note") && argv[i - 1] !== "--note");
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? "unknown";
  return {
    date: new Date().toISOString(),
    machine: {
      nproc: os.availableParallelism(),
      cpu,
      memoryGiB: +(os.totalmem() / 1024 ** 3).toFixed(1),
      node: process.version,
    },
    // The note is kept apart (run.note), not repeated in the command.
    command: ["npm run bench", ...(args.length ? ["--", ...args] : [])].join(" "),
  };
}

/** Each workload's ratio to the floor: worker CPU per request, and throughput. */
export function ratios(run) {
  const out = {};
  for (const [id, w] of Object.entries(run.workloads)) {
    if (w.app && w.floor)
      out[id] = { cpu: w.app.cpuMs.worker / w.floor.cpuMs.worker, rps: w.app.rps / w.floor.rps };
  }
  return out;
}

const met = (ok) => (ok ? "met" : "**not met**");

function targets(run) {
  const r = ratios(run);
  const rows = [];
  if (r["html-items"])
    rows.push([
      "HTML /items: worker CPU ≤ 1.0x floor",
      x(r["html-items"].cpu),
      met(r["html-items"].cpu <= 1.0),
    ]);
  // A shell (issue 31) against the floor rendering its page whole.
  for (const [id, { label, shell, app, floor }] of Object.entries(run.workloads)) {
    if (!shell || !r[id]) continue;
    rows.push([
      `${label}, against the floor rendering the page whole: worker CPU ≤ ${shell}x`,
      `${x(r[id].cpu)} (${ms(app.cpuMs.worker)} / ${ms(floor.cpuMs.worker)} ms${windows(app, floor)})`,
      met(r[id].cpu <= shell),
    ]);
  }
  // Before issue 31, html-guestbook was a render; since, html-guestbook-render is (a shell above).
  for (const id of ["html-home", "html-guestbook", "html-guestbook-render"]) {
    if (!r[id] || run.workloads[id].shell) continue;
    const { label } = run.workloads[id];
    rows.push([`${label}: worker CPU ≤ 1.1x floor`, `${r[id].cpu.toFixed(2)}x`, met(r[id].cpu <= 1.1)]);
    rows.push([`${label}: req/s ≥ 0.9x floor`, `${r[id].rps.toFixed(2)}x`, met(r[id].rps >= 0.9)]);
  }
  for (const { page, html, data, cpu } of DATA_PAIRS) {
    // The pair measured in alternating windows; runs before it had only the workloads' own.
    const h = run.dataPairs?.[page]?.html ?? run.workloads[html]?.app;
    const d = run.dataPairs?.[page]?.data ?? run.workloads[data]?.app;
    if (!h || !d) continue;
    if (cpu) {
      const ratio = d.cpuMs.worker / h.cpuMs.worker;
      rows.push([
        `page data ${page}: worker CPU ≤ ${cpu}x its HTML's`,
        `${x(ratio)} (${ms(d.cpuMs.worker)} / ${ms(h.cpuMs.worker)} ms)`,
        met(ratio <= cpu),
      ]);
    } else
      rows.push([
        `page data ${page}: req/s ≥ 2x its HTML`,
        `${(d.rps / h.rps).toFixed(2)}x`,
        met(d.rps >= 2 * h.rps),
      ]);
  }
  for (const { key, label, limit } of CACHE_PAIRS) {
    const pair = run.cachePairs?.[key];
    if (!pair) continue;
    const ratio = pair.hit.cpuMs.worker / pair.render.cpuMs.worker;
    rows.push([
      `${label}: worker CPU ≤ ${limit}x`,
      `${x(ratio)} (${ms(pair.hit.cpuMs.worker)} / ${ms(pair.render.cpuMs.worker)} ms${windows(pair.hit, pair.render)})`,
      met(ratio <= limit),
    ]);
    if (!pair.floor) continue;
    // The floor sends the same pages from memory as they are: what is left is the framework's.
    const own = (app, floor) => app.cpuMs.worker - floor.cpuMs.worker;
    const [small, large] = [own(pair.render, pair.floor.render), own(pair.hit, pair.floor.hit)];
    rows.push([
      `the same, less what the floor spends sending those pages' bytes: ≤ ${limit}x`,
      `${x(large / small)} (${ms(large)} / ${ms(small)} ms; the floor's ${x(pair.floor.hit.cpuMs.worker / pair.floor.render.cpuMs.worker)})`,
      met(large / small <= limit),
    ]);
  }
  for (const { key, label, ttfb } of SHELL_PAIRS) {
    const pair = run.shellPairs?.[key];
    if (!pair) continue;
    const [plain, shell] = [pair.plain.firstByte, pair.shell.firstByte];
    const ratio = shell.median / plain.median;
    const rounds = shell.rounds.map((t, i) => t / plain.rounds[i]);
    rows.push([
      `${label}: first byte ≤ ${ttfb}x (median of ${shell.samples} each, one at a time)`,
      `${x(ratio)} (${ms(shell.median)} / ${ms(plain.median)} ms; rounds ${range(rounds)})`,
      met(ratio <= ttfb),
    ]);
    rows.push([
      "the same: worker CPU under load (no target)",
      `${x(pair.shell.cpuMs.worker / pair.plain.cpuMs.worker)} (${ms(pair.shell.cpuMs.worker)} / ${ms(pair.plain.cpuMs.worker)} ms${windows(pair.shell, pair.plain)})`,
      "",
    ]);
  }
  const first = run.firstRequest;
  if (first) {
    const ratio = first.app.cpuMs / first.floor.cpuMs;
    rows.push([
      "the first /items after start: worker CPU ≤ 1.1x floor",
      `${x(ratio)} (${ms(first.app.cpuMs)} / ${ms(first.floor.cpuMs)} ms)`,
      met(ratio <= 1.1),
    ]);
    // Runs before 2026-11-25 have no floor with a log line.
    if (first.floorLogged) {
      const logged = first.app.cpuMs / first.floorLogged.cpuMs;
      rows.push([
        "the same, against the floor writing the app's log line (local workerd's console formatter loads in both): ≤ 1.1x",
        `${x(logged)} (${ms(first.app.cpuMs)} / ${ms(first.floorLogged.cpuMs)} ms)`,
        met(logged <= 1.1),
      ]);
    }
  }
  rows.push(...againstTargets(run));
  const js = run.javascript["/"];
  if (js)
    rows.push([
      "JavaScript for / ≤ React + 6 KB gzip",
      `React + ${(js.rest.gzip / KB).toFixed(1)} KB`,
      met(js.rest.gzip <= 6 * KB),
    ]);
  // The budget of test/node/worker-bundle.test.ts: 130,000 bytes.
  const gz = run.workerBundle.gzip;
  rows.push(["worker bundle < 130 kB gzip", `${(gz / 1000).toFixed(1)} kB`, met(gz < 130_000)]);
  return rows;
}

/** Issue 30: this tree against an older one (`--against`), measured in the same run. */
function againstTargets(run) {
  const against = run.against;
  if (!against) return [];
  const short = against.commit.slice(0, 7);
  const name = against.commit.startsWith(against.ref) ? short : `${against.ref} (${short})`;
  const rows = [];
  const items = against.workloads?.["html-items"];
  if (items) {
    const ratio = items.app.cpuMs.worker / items.old.cpuMs.worker;
    rows.push([
      `HTML /items against ${name}, in the same windows: worker CPU ≤ 1.03x`,
      `${x(ratio)} (${ms(items.app.cpuMs.worker)} / ${ms(items.old.cpuMs.worker)} ms)`,
      met(ratio <= 1.03),
    ]);
  }
  const [app, old] = [run.firstRequest?.app, against.firstRequest];
  if (app && old) {
    const ratio = app.cpuMs / old.cpuMs;
    rows.push([
      `the first /items after start against ${name}: worker CPU ≤ 1.0x`,
      `${x(ratio)} (${ms(app.cpuMs)} / ${ms(old.cpuMs)} ms; wall clock ${x(app.ms / old.ms)})`,
      met(ratio <= 1.0),
    ]);
  }
  return rows;
}

const table = (head, rows) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
const ms = (n) => (Number.isFinite(n) ? n.toFixed(2) : "-");
const kb = (n) => (n / KB).toFixed(1);
const x = (n) => `${n.toFixed(2)}x`;
/** The middle half of `ratios` (their quartiles), as `0.11-0.13x`. */
function range(ratios) {
  const sorted = [...ratios].sort((a, b) => a - b);
  const at = (q) => sorted[Math.floor((sorted.length - 1) * q)].toFixed(2);
  return `${at(0.25)}-${at(0.75)}x`;
}
/** `a` over `b` window by window (alternating windows), as `; windows 0.11-0.13x`; runs before: "". */
const windows = (a, b) =>
  a.workerCpuMsPerWindow && b.workerCpuMsPerWindow
    ? `; windows ${range(a.workerCpuMsPerWindow.map((t, i) => t / b.workerCpuMsPerWindow[i]))}`
    : "";

/** The run as Markdown: what the console shows and what BENCHMARKS.md's figures are. */
export function summary(run) {
  const m = run.machine;
  const t = run.timing;
  const r = ratios(run);
  const note = run.note ?? run.title;
  const parts = [
    `Run of ${run.date.slice(0, 16).replace("T", " ")} UTC${note ? ` (${note})` : ""}: \`${run.command}\` on ` +
      `${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}. Load: autocannon, ` +
      `${t.connections ?? 8} connections, ${t.durationS} s per server in ${t.rounds} alternating windows ` +
      `after a ${t.warmupS} s warm-up${t.rate ? `, at a fixed ${t.rate} req/s` : ""}. Runtime: ${run.runtime}.`,
    table(
      [
        "Workload",
        "app req/s",
        "floor req/s",
        "req/s vs floor",
        "app CPU ms/req",
        "floor CPU",
        "CPU vs floor",
        "app p50 / p99 ms",
      ],
      Object.entries(run.workloads).map(([id, { label, app, floor }]) =>
        app
          ? [
              label,
              Math.round(app.rps),
              floor ? Math.round(floor.rps) : "-",
              r[id] ? x(r[id].rps) : "-",
              ms(app.cpuMs.worker),
              floor ? ms(floor.cpuMs.worker) : "-",
              r[id] ? x(r[id].cpu) : "-",
              `${app.p50} / ${app.p99}`,
            ]
          : [label, "unavailable", "", "", "", "", "", ""],
      ),
    ),
    table(["Target", "measured", ""], targets(run)),
  ];
  const bytes = Object.entries(run.bytes);
  if (bytes.length)
    parts.push(
      table(
        ["Page", "HTML bytes (gzip)", "page data bytes (gzip)", "floor's HTML bytes"],
        bytes.map(([page, b]) => [
          page,
          `${b.html.raw} (${b.html.gzip})`,
          `${b.data.raw} (${b.data.gzip})`,
          b.floorHtml.raw,
        ]),
      ),
    );
  parts.push(
    table(
      ["JavaScript of a first load, KB raw / gzip / brotli", "files", "total", "React", "the rest"],
      Object.entries(run.javascript).map(([page, j]) => [
        page,
        j.files,
        ...[j.total, j.react, j.rest].map((s) => `${kb(s.raw)} / ${kb(s.gzip)} / ${kb(s.brotli)}`),
      ]),
    ),
  );
  const facts = [
    `Worker bundle (${run.builtBeforeStart ? "`vite build`'s dist/verge/index.js" : "`npm run check:deploy`"}): ${kb(run.workerBundle.raw)} KB raw, ${kb(run.workerBundle.gzip)} KB gzip.`,
  ];
  if (run.slow)
    facts.push(
      `/slow (median of ${run.slow.samples}): first byte after ${ms(run.slow.ttfb)} ms, last after ${ms(run.slow.ttlb)} ms.`,
    );
  if (run.startupCpuMs) {
    const { app, floor } = run.startupCpuMs;
    facts.push(
      `Start-up, the Worker's process CPU until its first 200: app ${Math.round(app)} ms, floor ${Math.round(floor)} ms (${(app / floor).toFixed(2)}x).`,
    );
  }
  if (run.firstRequest) {
    const { app, floor, floorLogged } = run.firstRequest;
    const logged = floorLogged
      ? `; the floor writing a log line ${ms(floorLogged.ms)} ms (app ${x(app.ms / floorLogged.ms)})`
      : "";
    facts.push(
      `The first /items after start (median of ${app.samples.length} fresh starts each), wall clock: app ${ms(app.ms)} ms, floor ${ms(floor.ms)} ms (${x(app.ms / floor.ms)})${logged}.`,
    );
  }
  // Runs before the move to Vite bundled each Worker as it started.
  const bundling = run.builtBeforeStart ? "" : ", bundling included";
  facts.push(
    `First 200 after start${bundling} (wall clock): app ${Math.round(run.startupMs.app)} ms, floor ${Math.round(run.startupMs.floor)} ms.`,
  );
  parts.push(facts.join(" "));
  if (run.traps?.rows) parts.push(trapsTable(run));
  return parts.join("\n\n") + "\n";
}

function trapsTable(run) {
  const [base] = run.traps.rows;
  return [
    `Traps (\`--traps\`, run of ${run.date.slice(0, 16).replace("T", " ")} UTC): ${run.traps.workload}, ` +
      `the app run ${["", "one", "two", "three", "four"][run.traps.rows.length] ?? run.traps.rows.length} ways in alternating windows, each against the first row:`,
    "",
    table(
      ["The app run as", "req/s", "Worker's process CPU ms/req", "other processes' CPU ms/req"],
      run.traps.rows.map((row) => [
        row.name,
        `${Math.round(row.rps)} (${x(row.rps / base.rps)})`,
        `${ms(row.workerCpuMs)} (${x(row.workerCpuMs / base.workerCpuMs)})`,
        ms(row.otherCpuMs),
      ]),
    ),
  ].join("\n");
}

/** A run of every workload at full load: what BENCHMARKS.md shows as the current figures. */
const isFull = (run) => !run.quick && !run.timing?.rate && !run.command.includes("--only");

/** Writes `text` to `file` as Prettier would format it, so `npm run format:check` stays green. */
async function writeFormatted(file, text) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  await writeFile(file, await prettier.format(text, { ...options, filepath: file }));
}

/** Rewrites the figures in BENCHMARKS.md: the latest full run, and the latest traps measured. */
export async function writeBenchmarks() {
  const history = JSON.parse(await readFile(historyFile, "utf8"));
  const current = history.findLast(isFull);
  const traps = history.findLast((run) => run.traps?.rows);
  const figures = [current ? summary({ ...current, traps: undefined }) : "No full run recorded yet."];
  if (traps) figures.push(trapsTable(traps));
  const text = await readFile(benchmarksFile, "utf8");
  const [before, rest] = text.split(START);
  if (rest === undefined || !rest.includes(END))
    throw new Error(`BENCHMARKS.md lacks the markers ${START} ${END}`);
  const after = rest.slice(rest.indexOf(END));
  await writeFormatted(benchmarksFile, `${before}${START}\n\n${figures.join("\n\n")}\n${after}`);
}

/** Appends the run to bench/history.json and rewrites BENCHMARKS.md's figures. */
export async function record(run) {
  const history = JSON.parse(await readFile(historyFile, "utf8").catch(() => "[]"));
  history.push({ ...run, ratios: ratios(run) });
  await writeFormatted(historyFile, JSON.stringify(history));
  await writeBenchmarks();
}
