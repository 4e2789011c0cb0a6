// The run as Markdown: each workload against the floor, bytes, and issue 6's targets.
import { CONNECTIONS } from "./load.mjs";
import { DATA_PAIRS, WORKLOADS } from "./workloads.mjs";

const KB = 1024;

/** Each workload's ratio to the floor: worker CPU per request, and throughput. */
export function ratios(run) {
  const out = {};
  for (const [id, w] of Object.entries(run.workloads)) {
    if (w.app && w.floor)
      out[id] = { cpu: w.app.cpuMs.worker / w.floor.cpuMs.worker, rps: w.app.rps / w.floor.rps };
  }
  return out;
}

function targets(run) {
  const r = ratios(run);
  const rows = [];
  for (const id of ["html-home", "html-guestbook"]) {
    const label = WORKLOADS.find((w) => w.id === id).label;
    if (!r[id]) {
      rows.push([`${label}: CPU ≤ 1.1x floor, req/s ≥ 0.9x`, "unavailable", "-"]);
      continue;
    }
    rows.push([
      `${label}: worker CPU ≤ 1.1x floor`,
      `${r[id].cpu.toFixed(2)}x`,
      r[id].cpu <= 1.1 ? "met" : "NOT met",
    ]);
    rows.push([
      `${label}: req/s ≥ 0.9x floor`,
      `${r[id].rps.toFixed(2)}x`,
      r[id].rps >= 0.9 ? "met" : "NOT met",
    ]);
  }
  for (const { page, html, data } of DATA_PAIRS) {
    // Since performance pass 6 from alternating windows of the two (run.dataPairs); before, and
    // when a pair was not measured, from the workloads' own windows, minutes apart.
    const paired = run.dataPairs?.[page];
    const h = paired?.html ?? run.workloads[html]?.app;
    const d = paired?.data ?? run.workloads[data]?.app;
    if (!h || !d) rows.push([`page data ${page} ≥ 2x HTML req/s`, "unavailable", "-"]);
    else
      rows.push([
        `page data ${page} ≥ 2x HTML req/s${paired ? " (alternating windows)" : ""}`,
        `${(d.rps / h.rps).toFixed(2)}x`,
        d.rps / h.rps >= 2 ? "met" : "NOT met",
      ]);
  }
  const js = run.javascript["/"];
  rows.push([
    "JS for / ≤ React + 6 KB gzip",
    `React + ${(js.rest.gzip / KB).toFixed(1)} KB`,
    js.rest.gzip <= 6 * KB ? "met" : "NOT met",
  ]);
  const gz = run.workerBundle.gzip;
  // The same budget as test/node/worker-bundle.test.ts: 130,000 bytes.
  rows.push([
    "worker bundle < 130 KB gzip",
    `${(gz / 1000).toFixed(1)} kB`,
    gz < 130_000 ? "met" : "NOT met",
  ]);
  return rows;
}

const table = (head, rows) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
const ms = (n) => (Number.isFinite(n) ? n.toFixed(2) : "-");
const kb = (n) => `${(n / KB).toFixed(1)}`;

/** The run as a Markdown section: what BENCHMARKS.md gets and what the console shows. */
export function summary(run) {
  const m = run.machine;
  const r = ratios(run);
  const t = run.timing;
  const load = t
    ? `${t.durationS} s per server in ${t.rounds} windows alternating between app and floor, after a ${t.warmupS} s warm-up${t.rate ? `, at a fixed ${t.rate} req/s` : ""}${run.quick ? " (--quick)" : ""}`
    : "10 s per server after a 3 s warm-up";
  const workloadRows = Object.entries(run.workloads).map(([id, w]) => {
    if (w.unavailable) return [w.label, "unavailable", "", "", "", "", "", "", "", ""];
    const a = w.app;
    const f = w.floor;
    return [
      w.label,
      Math.round(a.rps),
      a.p50,
      a.p99,
      ms(a.cpuMs.worker),
      ms(a.cpuMs.proxy),
      ms(a.cpuMs.node),
      f ? `${Math.round(f.rps)} / ${ms(f.cpuMs.worker)}` : "-",
      r[id] ? `${r[id].cpu.toFixed(2)}x` : "-",
      r[id] ? `${r[id].rps.toFixed(2)}x` : "-",
    ];
  });
  const parts = [
    `### ${run.date.slice(0, 16).replace("T", " ")} UTC${run.title ? `: ${run.title}` : ""}`,
    `Machine: ${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}. Command: \`${run.command}\`. ` +
      `Load: autocannon, ${CONNECTIONS} connections, ${load}, per workload and server. ` +
      (run.runtime ? `Runtime: ${run.runtime}. ` : "") +
      `First 200 after start: app ${Math.round(run.startupMs.app)} ms, floor ${Math.round(run.startupMs.floor)} ms.`,
    table(
      [
        "Workload",
        "req/s",
        "p50 ms",
        "p99 ms",
        "worker CPU ms/req",
        "proxy CPU",
        "Node CPU",
        "floor req/s / CPU",
        "CPU vs floor",
        "req/s vs floor",
      ],
      workloadRows,
    ),
  ];
  const byteRows = Object.entries(run.bytes).map(([page, b]) => [
    page,
    b.html.raw,
    b.html.gzip,
    b.data.raw,
    b.data.gzip,
    b.floorHtml.raw,
  ]);
  if (byteRows.length)
    parts.push(
      table(
        ["Page", "HTML bytes", "HTML gzip", "page data bytes", "page data gzip", "floor HTML bytes"],
        byteRows,
      ),
    );
  if (run.slow)
    parts.push(
      `/slow (median of ${run.slow.samples}): first byte after ${ms(run.slow.ttfb)} ms, last byte after ${ms(run.slow.ttlb)} ms.`,
    );
  const jsRows = Object.entries(run.javascript).map(([page, j]) => [
    page,
    j.files,
    `${kb(j.total.raw)} / ${kb(j.total.gzip)} / ${kb(j.total.brotli)}`,
    `${kb(j.react.raw)} / ${kb(j.react.gzip)} / ${kb(j.react.brotli)}`,
    `${kb(j.rest.raw)} / ${kb(j.rest.gzip)} / ${kb(j.rest.brotli)}`,
  ]);
  parts.push(
    table(["JavaScript (KB raw / gzip / brotli)", "files", "total", "React", "everything else"], jsRows),
  );
  const wb = run.workerBundle;
  parts.push(
    `Worker bundle (as \`npm run check:deploy\` builds it: wrangler deploy --dry-run --minify): ${kb(wb.raw)} KB raw, ${kb(wb.gzip)} KB gzip.`,
  );
  if (run.traps) parts.push(run.traps.text);
  parts.push(table(["Target (issue 6)", "measured", ""], targets(run)));
  return parts.join("\n\n") + "\n";
}
