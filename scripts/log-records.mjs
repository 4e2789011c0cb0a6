// Finds verge's request log lines in a text stream: one-line JSON (`npm run dev`, Workers Logs
// exports) and the pretty-printed events of `wrangler tail --format json` (lines under logs[].message).

/**
 * Splits text, fed in pieces, into JSON values: a value starts at a line whose first
 * non-blank character is "{" and ends where its braces balance. Other text is skipped.
 */
export function jsonValues(onValue) {
  let buffer = "";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let atLineStart = true;
  return function feed(text) {
    for (const ch of text) {
      if (depth === 0) {
        if (ch === "{" && atLineStart) {
          depth = 1;
          buffer = ch;
        } else if (ch === "\n") atLineStart = true;
        else if (ch !== " " && ch !== "\t" && ch !== "\r") atLineStart = false;
        continue;
      }
      buffer += ch;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === "\\") escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        atLineStart = false;
        try {
          onValue(JSON.parse(buffer));
        } catch {
          // Braces balanced but not JSON (a plain-text line that began with "{"): skip it.
        }
      } else if (ch === "\n" && buffer.length > 1_000_000) {
        depth = 0; // runaway capture: not one of ours
      }
    }
  };
}

// A request's line has a status; a scheduled run's (kind "scheduled", src/server/scheduled.ts) has none.
const isRequestLine = (value) =>
  typeof value === "object" &&
  value !== null &&
  typeof value.kind === "string" &&
  ("status" in value || value.kind === "scheduled");

/** The request log lines inside one JSON value (a line itself, or a tail event carrying them). */
export function requestLines(value) {
  if (isRequestLine(value)) return [value];
  if (!Array.isArray(value?.logs)) return [];
  const found = [];
  for (const log of value.logs) {
    for (const part of Array.isArray(log?.message) ? log.message : [log?.message]) {
      let parsed = part;
      if (typeof part === "string" && part.trimStart().startsWith("{")) {
        try {
          parsed = JSON.parse(part);
        } catch {
          continue;
        }
      }
      if (isRequestLine(parsed)) found.push(parsed);
    }
  }
  return found;
}

/** Builds the filter from parsed options; throws with a message on a bad value. */
export function lineFilter({ digest, ray, status, kind, path }) {
  let statusTest = () => true;
  if (status !== undefined) {
    const range = /^([1-5])xx$/i.exec(status);
    if (range) statusTest = (s) => Math.floor(s / 100) === Number(range[1]);
    else if (/^\d{3}$/.test(status)) statusTest = (s) => s === Number(status);
    else throw new Error(`--status takes a code (404) or a class (5xx), not "${status}"`);
  }
  const pathTest =
    path === undefined
      ? () => true
      : path.endsWith("*")
        ? (p) => String(p).startsWith(path.slice(0, -1))
        : (p) => p === path;
  // A request that captured several errors lists the later ones under `errors`.
  const hasDigest = (line) =>
    line.digest === digest || (Array.isArray(line.errors) && line.errors.some((e) => e?.digest === digest));
  return (line) =>
    (digest === undefined || hasDigest(line)) &&
    (ray === undefined || line.ray === ray) &&
    (kind === undefined || line.kind === kind) &&
    statusTest(Number(line.status)) &&
    pathTest(line.path);
}

// Control characters (C0, DEL, C1: U+009B alone is a terminal's CSI) and bidi overrides, which
// could move the cursor, retitle the window or reorder what the operator reads.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const hex = (ch, width) => ch.charCodeAt(0).toString(16).padStart(width, "0");

/** `text` with every unsafe character as a visible escape (\x1b, \u202e); newlines included. */
export const escapeControls = (text) =>
  String(text).replace(UNSAFE, (ch) => (ch.charCodeAt(0) <= 0xff ? `\\x${hex(ch, 2)}` : `\\u${hex(ch, 4)}`));

/** `value` as one line of JSON with unsafe characters as \u escapes: it still parses to `value`. */
export const safeJson = (value) => JSON.stringify(value).replace(UNSAFE, (ch) => `\\u${hex(ch, 4)}`);

/** The order phases are listed in; others (each deferred value's) follow by name. */
const PHASE_ORDER = ["match", "visitor", "cache", "action", "loader", "d1", "shell", "resume", "relay"];
const phaseRank = (name) => {
  const known = PHASE_ORDER.indexOf(name);
  return known < 0 ? PHASE_ORDER.length : known;
};
const byPhase = (a, b) => phaseRank(a) - phaseRank(b) || (a < b ? -1 : a > b ? 1 : 0);
const isMs = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;

/** A line's phases from its `timings` ({ phase: [start, ms] }) as { name, start, ms }, by start. */
export function phasesOf(line) {
  const timings = line?.timings;
  if (typeof timings !== "object" || timings === null || Array.isArray(timings)) return [];
  const phases = [];
  for (const [name, pair] of Object.entries(timings)) {
    if (Array.isArray(pair) && isMs(pair[0]) && isMs(pair[1]))
      phases.push({ name, start: pair[0], ms: pair[1] });
  }
  return phases.sort((a, b) => a.start - b.start || byPhase(a.name, b.name));
}

/** The nearest-rank percentile `q` (0-1] of ascending `sorted`: a value that was measured. */
export function percentile(sorted, q) {
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}

const QUANTILES = [0.5, 0.95, 0.99];

/**
 * Per route (a kind and a route pattern: a page's HTML and its data differ; an edge-cached page's
 * answers by their cache state, a stored shell's apart from a miss), the count and the p50/p95/p99
 * of the total (`ms`) and of each phase, over the lines that have it.
 */
export function percentileTable(lines) {
  const groups = new Map();
  for (const line of lines) {
    const name = `${line.kind} ${line.route ?? "(no route)"}${line.cache ? ` (cache: ${line.cache})` : ""}`;
    let group = groups.get(name);
    if (!group) groups.set(name, (group = { name, requests: 0, samples: new Map([["total", []]]) }));
    group.requests++;
    if (isMs(line.ms)) group.samples.get("total").push(line.ms);
    for (const { name: phase, ms } of phasesOf(line)) {
      if (!group.samples.has(phase)) group.samples.set(phase, []);
      group.samples.get(phase).push(ms);
    }
  }
  return [...groups.values()]
    .sort((a, b) => b.requests - a.requests || (a.name < b.name ? -1 : 1))
    .map(({ name, requests, samples }) => {
      const [total, ...phases] = [...samples.keys()];
      const rows = [total, ...phases.sort(byPhase)].map((phase) => {
        const sorted = samples.get(phase).sort((a, b) => a - b);
        const [p50, p95, p99] = QUANTILES.map((q) => (sorted.length ? percentile(sorted, q) : null));
        return { phase, count: sorted.length, p50, p95, p99 };
      });
      return { route: name, requests, rows };
    });
}

/** Google's thresholds of a good page, at the 75th percentile of its views (web.dev/articles/vitals). */
const VITALS_GOOD = { lcp: 2500, inp: 200, cls: 0.1 };
const METRICS = ["lcp", "inp", "cls", "fcp", "ttfb"];
const ascending = (a, b) => a - b;

/** The relay's Web Vitals reports (`vitals`) by route and by build: views, each metric's p75, those over Google's. */
export function vitalsTable(lines) {
  const reports = lines.map((line) => line.vitals).filter((v) => typeof v === "object" && v !== null);
  const p75 = (values) => (values.length ? percentile(values.sort(ascending), 0.75) : null);
  const by = (key) =>
    [...new Set(reports.map((r) => String(r[key])))]
      .map((name) => {
        const mine = reports.filter((r) => String(r[key]) === name);
        const p = Object.fromEntries(METRICS.map((m) => [m, p75(mine.map((r) => r[m]).filter(isMs))]));
        return { name, views: mine.length, p75: p, failing: METRICS.filter((m) => p[m] > VITALS_GOOD[m]) };
      })
      .sort((a, b) => b.views - a.views || (a.name < b.name ? -1 : 1));
  return { routes: by("route"), builds: by("build") };
}

/** vitalsTable as text: a row per route, then per build, `!` on a p75 over its threshold. */
export function vitalsText({ routes, builds }) {
  const cell = (r, m) =>
    (r.p75[m]?.toFixed(m === "cls" ? 3 : 0) ?? "-") + (r.failing.includes(m) ? "!" : " ");
  const row = (cells) =>
    cells[0].padEnd(28) +
    cells
      .slice(1)
      .map((c, i) => c.padStart(i ? 9 : 6))
      .join("");
  const table = (groups, title) => [
    row([title, "views", ...METRICS.map((m) => `${m.toUpperCase()} `)]),
    ...groups.map((r) => row([escapeControls(r.name), String(r.views), ...METRICS.map((m) => cell(r, m))])),
    "",
  ];
  const failing = routes.filter((r) => r.failing.length > 0);
  const failures = (r) => r.failing.map((m) => `${m.toUpperCase()} ${cell(r, m)}`).join(" ");
  return [
    "Web Vitals, 75th percentile (ms; CLS unitless). ! over Google's thresholds: LCP 2500 ms, INP 200 ms, CLS 0.1",
    "",
    ...table(routes, "route"),
    ...table(builds, "build"),
    `Routes failing Google's thresholds:${failing.length ? "" : " none"}`,
    ...failing.map((r) => `  ${escapeControls(r.name)}: ${failures(r)}`),
    "",
  ].join("\n");
}

const fixed = (ms) => (ms === null || ms === undefined ? "-" : ms.toFixed(1));

/** percentileTable's groups as text: a heading per route, a row per phase. */
export function percentileText(table) {
  const out = [];
  for (const { route, requests, rows } of table) {
    out.push(`${escapeControls(route)}  ${requests} request${requests === 1 ? "" : "s"}`);
    const width = Math.max(5, ...rows.map((row) => escapeControls(row.phase).length));
    out.push(
      `  ${"phase".padEnd(width)}  ${["count", "p50", "p95", "p99"].map((h) => h.padStart(8)).join("")}`,
    );
    for (const row of rows) {
      const cells = [String(row.count), fixed(row.p50), fixed(row.p95), fixed(row.p99)];
      out.push(
        `  ${escapeControls(row.phase).padEnd(width)}  ${cells.map((cell) => cell.padStart(8)).join("")}`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}

/**
 * One request as a waterfall: a bar per phase on a scale of `width` columns from its arrival to
 * its end (the line's `ms`), each with its start and duration; D1's bar is its statements' summed
 * time, drawn from the first one's start.
 */
export function waterfall(line, width = 48) {
  const text = (value) => escapeControls(value ?? "");
  const phases = phasesOf(line);
  const total = Math.max(isMs(line.ms) ? line.ms : 0, ...phases.map((p) => p.start + p.ms));
  const column = (ms) => (total > 0 ? Math.min(width, Math.round((ms / total) * width)) : 0);
  const bar = (start, ms) => {
    const from = column(start);
    const to = column(start + ms);
    // Shorter than a column: a thin mark where it began.
    if (to <= from) {
      const at = Math.min(from, width - 1);
      return " ".repeat(at) + "▏" + " ".repeat(width - at - 1);
    }
    return " ".repeat(from) + "█".repeat(to - from) + " ".repeat(width - to);
  };
  const names = [...phases.map((p) => text(p.name)), "total"];
  const nameWidth = Math.max(...names.map((name) => name.length));
  const digest = line.digest ? `  digest=${text(line.digest)}` : "";
  const queries =
    typeof line.d1_queries === "number"
      ? ` (${line.d1_queries} ${line.d1_queries === 1 ? "query" : "queries"})`
      : "";
  const out = [
    `${text(line.method)} ${text(line.path)} ${text(line.status)} ${text(line.kind)}${line.route && line.route !== line.path ? ` ${text(line.route)}` : ""} ${text(line.ms)}ms  ray=${text(line.ray)}${line.cache ? `  cache=${text(line.cache)}` : ""}${digest}`,
  ];
  for (const phase of phases) {
    const where = `${fixed(phase.start).padStart(8)} +${fixed(phase.ms).padStart(8)} ms`;
    out.push(
      `  ${text(phase.name).padEnd(nameWidth)} |${bar(phase.start, phase.ms)}| ${where}${phase.name === "d1" ? queries : ""}`,
    );
  }
  out.push(
    `  ${"total".padEnd(nameWidth)} |${bar(0, total)}| ${fixed(0).padStart(8)} +${fixed(total).padStart(8)} ms`,
  );
  if (phases.length === 0) out.push("  (no timings on this line)");
  return out.join("\n");
}
