// `npm run logs`: reads verge's JSON log lines from stdin (`npm run tail`, `npm run dev`, or a
// saved file), keeps those matching the filters, and prints them readably (or as JSON with --json),
// their stacks mapped back to the sources (scripts/symbolicate.mjs) unless --raw; or, once the
// input ends, where their time went: a waterfall per request, or percentiles per route.
//   npm run tail | npm run logs -- --status 5xx
//   npm run logs -- --digest k3j9x0a1b2c < saved.log
//   npm run logs -- --waterfall --ray 8f1c2a9e4b7d6a3c < saved.log
//   npm run logs -- --slowest 5 --path '/guestbook*' < saved.log
//   npm run logs -- --percentiles --kind html < saved.log
//   npm run logs -- --vitals < saved.log
//   npm run tail | npm run logs -- --kind scheduled
import path from "node:path";
import { parseArgs } from "node:util";
import {
  escapeControls,
  jsonValues,
  lineFilter,
  percentileTable,
  percentileText,
  phasesOf,
  requestLines,
  safeJson,
  vitalsTable,
  vitalsText,
  waterfall,
} from "./log-records.mjs";
import { symbolicateLine, symbolicator } from "./symbolicate.mjs";

const USAGE = `usage: npm run logs -- [--digest D] [--ray R] [--status 5xx|404]
                     [--kind html|data|action|endpoint|relay|asset|scheduled]
                     [--path /exact | --path '/prefix*'] [--json] [--raw]
                     [--waterfall | --slowest N | --percentiles | --vitals]  < log output
  --raw          print stack frames as logged (by default they are mapped to src/ with the build's source maps)
  --waterfall    each matching request's phases as bars (with --ray or --digest: that request)
  --slowest N    the waterfalls of the N slowest matching requests, slowest first
  --percentiles  per route (kind and pattern): count, p50, p95 and p99 of the total and each phase
  --vitals       Web Vitals reports: p75 per route and per build, and the routes over Google's thresholds`;

let options, keep, views;
try {
  ({ values: options } = parseArgs({
    options: {
      digest: { type: "string" },
      ray: { type: "string" },
      status: { type: "string" },
      kind: { type: "string" },
      path: { type: "string" },
      json: { type: "boolean", default: false },
      raw: { type: "boolean", default: false },
      waterfall: { type: "boolean", default: false },
      slowest: { type: "string" },
      percentiles: { type: "boolean", default: false },
      vitals: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
  keep = lineFilter(options);
  if (options.slowest !== undefined && !/^[1-9]\d{0,5}$/.test(options.slowest)) {
    throw new Error(`--slowest takes a number of requests (5), not "${options.slowest}"`);
  }
  views = [options.waterfall, options.slowest !== undefined, options.percentiles, options.vitals];
  if ([...views, options.json].filter(Boolean).length > 1) {
    throw new Error(
      "--waterfall, --slowest, --percentiles, --vitals and --json are different views: choose one",
    );
  }
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const LEVEL_COLOR = { error: 31, warn: 33, info: 32 };
const SHOWN = new Set(
  "ts level status method path cron kind route ms ray digest message stack timings vitals".split(" "),
);

// Every value printed goes through escapeControls: lines carry text visitors chose (paths,
// messages), and a terminal obeys the control sequences in what it is given.
function pretty(line) {
  const text = (value) => escapeControls(value ?? "");
  const time = typeof line.ts === "string" ? line.ts.replace("T", " ").replace("Z", "") : "";
  const head = [
    paint(90, text(time)),
    paint(LEVEL_COLOR[line.level] ?? 0, text(String(line.level ?? "").toUpperCase()).padEnd(5)),
    // A scheduled run has no request: its cron stands where the method and path would.
    ...(line.kind === "scheduled"
      ? [text(`cron "${line.cron ?? ""}"`)]
      : [text(line.status), text(line.method), text(line.path)]),
    paint(
      90,
      text(`${line.kind}${line.route && line.route !== line.path ? ` ${line.route}` : ""} ${line.ms}ms`),
    ),
  ];
  const extra = Object.entries(line)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, value]) => `${text(key)}=${text(typeof value === "string" ? value : JSON.stringify(value))}`);
  const digest = line.digest ? `  digest=${paint(1, text(line.digest))}` : "";
  const out = [`${head.join(" ")}  ray=${text(line.ray)}${digest}`];
  if (extra.length > 0) out.push(`    ${extra.join(" ")}`);
  // The phases in short (their starts are in the waterfall view): name and ms, in order.
  const phases = phasesOf(line).map(({ name, ms }) => `${text(name)} ${ms}`);
  if (phases.length > 0) out.push(paint(90, `    ms: ${phases.join(" · ")}`));
  if (line.message) out.push(`    ${paint(31, text(line.message))}`);
  if (line.stack)
    out.push(
      ...String(line.stack)
        .split("\n")
        .slice(1)
        .map((l) => paint(90, `    ${text(l.trim())}`)),
    );
  return out.join("\n");
}

const symbolicate = symbolicator({
  appDir: path.resolve(import.meta.dirname, "../dist"),
  onMissing: (build) =>
    console.error(
      `[logs] no source maps for build ${build} in dist/sourcemaps/: its frames are left as logged`,
    ),
});

/** The views that need every line first (waterfalls of the slowest, percentiles, vitals). */
const gathered = [];
const gathering = views.some(Boolean);

const feed = jsonValues((value) => {
  for (const found of requestLines(value)) {
    if (!keep(found)) continue;
    if (gathering) gathered.push(found);
    else {
      const line = options.raw ? found : symbolicateLine(found, symbolicate);
      process.stdout.write(`${options.json ? safeJson(line) : pretty(line)}\n`);
    }
  }
});

function printViews() {
  if (options.percentiles) return process.stdout.write(percentileText(percentileTable(gathered)));
  if (options.vitals) return process.stdout.write(vitalsText(vitalsTable(gathered)));
  const ms = (line) => (typeof line.ms === "number" ? line.ms : 0);
  const shown =
    options.slowest === undefined
      ? gathered
      : [...gathered].sort((a, b) => ms(b) - ms(a)).slice(0, Number(options.slowest));
  for (const line of shown) process.stdout.write(`${waterfall(line)}\n\n`);
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", feed);
if (gathering) process.stdin.on("end", printViews);
