// `npm run bench:loop`: the handler's own cost, without HTTP. Runs bench/workers/loop-worker.tsx
// (the app and the floor, built as `vite build` builds the app: bench/vite.config.ts) on workerd
// through Miniflare; each request there calls one target's fetch `--n` times on one page. CPU per call is
// the runtime process's CPU over that request (the scheduler's nanosecond count, so short rounds
// are not rounded to 10 ms ticks), in `--rounds` alternating rounds (the median is printed).
// Steadier than the HTTP figures, so it can attribute differences of 0.01 ms.
//   npm run bench:loop -- [--path=/] [--n=4000] [--rounds=10] [--targets=app,app-quiet,floor]
//   npm run bench:loop -- --path=/items --targets=app-quiet,document,floor
//                                     `document`: /items' document as the app renders it, by
//                                     renderToReadableStream alone (what the runtime adds around it)
//   npm run bench:loop -- --path=/items-empty --targets=app-quiet,document,floor
//                                     the same page with no rows: what a render costs the runtime
//                                     whatever the page's size (React has little else to do)
//   npm run bench:loop -- --data      the page's data (X-Page-Data: 1, ?_data=1) instead of its HTML
//   npm run bench:loop -- --profile   also a V8 CPU profile of each target: functions by self time
//   npm run bench:loop -- --profile --profile-dir=<dir>
//                                     and each profile written as <dir>/<target>.cpuprofile (DevTools'
//                                     Performance panel opens it: the calls' tree, inclusive times)
//   npm run bench:loop -- --hit       the app without a D1 bookmark: a page that opts into the edge
//                                     cache is served from it (Miniflare's Cache API, in-process)
//   npm run bench:loop -- --signed-in a visitor with a session (the product's session middleware
//                                     reads it): `--path=/guestbook --hit --signed-in` is the
//                                     signed-in guestbook from its stored shell
//   npm run bench:loop -- --render    the page rendered whole: each call carries a D1 bookmark
//                                     (without it, a page that opts into the edge cache is served
//                                     from it, as `npm run bench` asks for /guestbook)
//   npm run bench:loop -- --hit --targets=app-quiet,app-quiet:render
//                                     `<target>:render`: the same target rendering the page whole
//                                     (a bookmark), alternating with the hit in the same rounds
//   npm run bench:loop -- --path=/guestbook --hit --signed-in --targets=app-quiet,app-quiet:anonymous
//                                     `<target>:anonymous` (with --signed-in): the same target for a
//                                     visitor without a session, in the same rounds (modes join:
//                                     `app-quiet:render:anonymous`)
//   npm run bench:loop -- --path=/guestbook --hit --memory-cache --signed-in --d1-memory
//                          --targets=app-quiet:fast-encode,app-quiet
//                                     `<target>:fast-encode`: with TextEncoder.encode given a JavaScript
//                                     path for short ASCII strings during its calls (an experiment:
//                                     React encodes each string it writes, each a native call). With
//                                     --against, a tree from before the mode runs it without
//   npm run bench:loop -- --writes    instead of timing: one call of each target, its body's
//                                     streams counted (made, piped, teed), the enqueues into them
//                                     and the chunks its reader gets, with their sizes
//                                     (bench/workers/stream-census.ts)
//   npm run bench:loop -- --d1-apart  also each target's D1 calls alone (recorded from one call,
//                                     replayed in the same rounds), and the target less them:
//                                     local D1 runs in the Worker's process, on Cloudflare it does not
//   npm run bench:loop -- --d1-memory every D1 call answered from a recording of one call, in the
//                                     isolate: the process CPU is the Worker's own, as on Cloudflare
//                                     (where D1 runs elsewhere), and a --profile of it is readable
//   npm run bench:loop -- --hit --memory-cache
//                                     the same from a Map in the isolate: what a hit costs the Worker
//                                     itself, without Miniflare's cache Worker and its storage
//   npm run bench:loop -- --against=<git ref> --path=/items --targets=app,floor --rounds=20
//                                     each target on this tree and on <ref>'s (checked out in a
//                                     temporary worktree, `npm ci`, built by its own build: trees.mjs),
//                                     each in its own workerd, alternating; prints this tree's over
//                                     <ref>'s round by round. The floor, nearly the same source in
//                                     both (each built by its tree's bundler), shows the noise
// With the profiler attached, each console.log is also sent to it: the log line costs several
// times more than in the timed rounds; the app-quiet target shows the rest without it.
// Pages that read D1 see a migrated database, empty but for /guestbook's entries (signed as
// `npm run bench` signs them, every fourth by the --signed-in visitor); BENCH_STATE=<dir> uses another.
// Each call carries a D1 bookmark where `npm run bench`'s workload for the page does (`/`), not
// where it does not (`/items`). The rounds alternate the targets; each round's ratios are printed.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startMiniflare } from "./miniflare.mjs";
import { threadsCpuMs, workerdChildren } from "./proc.mjs";
import { parseOptions } from "./cli.mjs";
import { applyMigrations, freePort, root } from "./server.mjs";
import { GUESTBOOK_ENTRIES, WORKLOADS } from "./workloads.mjs";
import { buildTree, checkoutTree } from "./trees.mjs";

const options = parseOptions(import.meta.url, {
  path: { type: "string", default: "/" },
  n: { type: "string", default: "4000" },
  rounds: { type: "string", default: "10" },
  targets: { type: "string", default: "app,app-quiet,floor" },
  profile: { type: "boolean", default: false },
  "profile-dir": { type: "string" },
  data: { type: "boolean", default: false },
  hit: { type: "boolean", default: false },
  "memory-cache": { type: "boolean", default: false },
  "signed-in": { type: "boolean", default: false },
  "d1-apart": { type: "boolean", default: false },
  "d1-memory": { type: "boolean", default: false },
  render: { type: "boolean", default: false },
  writes: { type: "boolean", default: false },
  against: { type: "string" },
});
if (options.hit && options.render) throw new Error("--hit and --render: say one (a hit, or a whole render)");
if (options["d1-apart"] && options["d1-memory"])
  throw new Error("--d1-apart and --d1-memory: say one (D1 timed apart, or answered from memory)");
const n = Number(options.n);
const rounds = Number(options.rounds);
const targets = options.targets.split(",");
/** What may follow a target's name, each after a colon (`app-quiet:render:anonymous`). */
const MODES = ["render", "anonymous", "fast-encode"];
for (const named of targets) {
  const unknown = named
    .split(":")
    .slice(1)
    .filter((mode) => !MODES.includes(mode));
  if (unknown.length > 0) throw new Error(`${named}: ${unknown} is not a mode (${MODES.join(", ")})`);
  if (named.includes(":anonymous") && !options["signed-in"])
    throw new Error(
      `${named}: :anonymous needs --signed-in (it is the target without the session the others get)`,
    );
}
/** The width of a target's label in the figures printed. */
const LABEL = Math.max(14, ...targets.map((t) => t.length + (options.against ? 4 : 0)));
const log = (line) => console.log(`[loop] ${line}`);
/**
 * Whether each call carries a D1 bookmark, as `npm run bench`'s workload for the same page does:
 * `/` with one (so the app renders it, past its edge cache), `/items` without (it is not cached,
 * and checking a bookmark's seal would cost the app an HMAC the benchmark's requests do not).
 * The benchmark's other /items pages (items.tsx) read no D1 either: none.
 */
const benched = WORKLOADS.find(
  (w) => !w.method && w.path === (options.data ? `${options.path}?_data=1` : options.path),
);
const itemsPage = options.path.startsWith("/items");
const bookmark = options.render || (!options.hit && !itemsPage && (!benched || benched.render === true));

const tmp = mkdtempSync(path.join(os.tmpdir(), "verge-loop-"));
const state = process.env.BENCH_STATE ?? path.join(tmp, "state");
if (!process.env.BENCH_STATE) applyMigrations(state);
// A profile needs names: then the bundle is not minified (which hardly changes what it costs).
const readable = options.profile;
log(
  `building bench/workers/loop-worker.tsx as \`vite build\` builds the app${readable ? ", not minified" : ""}`,
);
/** Each tree measured: this one ("new"), and with --against the other ("old"). */
const trees = [{ name: "new", workers: await buildTree(root, { readable }) }];
const other = options.against ? await checkoutTree(options.against, log) : undefined;
const workers = [];

try {
  if (other) {
    log(`building ${options.against}'s loop Worker with its own build`);
    const oldWorkers = await buildTree(other.dir, { readable });
    if (!oldWorkers.loop) throw new Error(`${options.against} has no bench/workers/loop-worker.tsx`);
    trees.push({ name: "old", workers: oldWorkers });
  }
  // One workerd per tree, each told apart by the child it added to this process (Miniflare runs here).
  for (const tree of trees) {
    const before = new Set(workerdChildren(process.pid));
    const inspectorPort = options.profile && tree === trees[0] ? await freePort() : undefined;
    const { bundle, config } = tree.workers.loop;
    // Each workerd its own copy of the database.
    const persist = tree === trees[0] ? state : path.join(tmp, `state-${tree.name}`);
    if (persist !== state) cpSync(state, persist, { recursive: true });
    const worker = await startMiniflare({ config, bundle, persist, inspectorPort });
    workers.push(worker);
    tree.url = worker.url;
    tree.inspectorPort = inspectorPort;
    tree.workerd = workerdChildren(process.pid).find((pid) => !before.has(pid));
  }
  /** A target on one tree: `app` on this tree, `app@old` on the other's. */
  const subjects = targets.flatMap((target) =>
    trees.map((tree) => ({ target, tree, label: tree === trees[0] ? target : `${target}@old` })),
  );
  const run = async ({ target: named, tree, d1, census }, count) => {
    // `<target>:render`: that target rendering the page whole, in the same rounds as the others;
    // `<target>:anonymous` (with --signed-in): that target for a visitor without a session;
    // `<target>:fast-encode`: with a JavaScript TextEncoder for short ASCII strings (an experiment).
    const [target, ...modes] = named.split(":");
    const query = new URLSearchParams({ target, n: String(count), path: options.path });
    if (d1) query.set("d1", d1);
    if (options.data) query.set("data", "1");
    if (modes.includes("render")) {
      // A bookmark: the worker's default without hit=1 or bookmark=0.
    } else if (options.hit) query.set("hit", "1");
    else if (!bookmark) query.set("bookmark", "0");
    if (options["memory-cache"]) query.set("cache", "memory");
    if (options["signed-in"] && !modes.includes("anonymous")) query.set("signed-in", "1");
    if (modes.includes("fast-encode")) query.set("encode", "fast");
    if (census) query.set("writes", "1");
    // The guestbook as `npm run bench` has it: its entries signed (trees before this ignore it).
    if (options.path.startsWith("/guestbook")) query.set("seed", String(GUESTBOOK_ENTRIES));
    const response = await fetch(`${tree.url}?${query}`);
    if (!response.ok) throw new Error(`${target}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  /** Records one call's D1 calls of `subject` in its Worker, for d1=replay or d1=memory. */
  const recordD1 = async (subject, what) => {
    const { d1Calls } = await run({ ...subject, d1: "record" }, 1);
    log(`${subject.label}: ${d1Calls} D1 calls per call (statements or batches), ${what}`);
  };
  // --d1-memory: each target's D1 calls, recorded from one call, answer all its calls after.
  if (options["d1-memory"]) {
    for (const subject of subjects) {
      await recordD1(subject, "answered from memory");
      subject.d1 = "memory";
    }
  }
  for (const subject of subjects) {
    const { bytesPerRequest, failed, firstFailure } = await run(subject, 300);
    // `failed`: trees from before it was counted leave it out.
    if (failed)
      throw new Error(
        `${subject.label}: ${failed} of 300 calls to ${options.path} did not answer 2xx; the first: ${firstFailure}`,
      );
    log(`${subject.label}: ${bytesPerRequest} bytes per call (warm-up)`);
  }
  // --writes: one more call of each, its streams counted, and no rounds.
  if (options.writes) {
    for (const subject of subjects) {
      const c = await run({ ...subject, census: true }, 1);
      const streams = `${c.readableStreams} ReadableStream, ${c.transformStreams} TransformStream, ${c.pipeThrough} pipeThrough, ${c.pipeTo} pipeTo, ${c.tee} tee`;
      log(`${subject.label}: ${streams}; ${c.enqueues} enqueues (${c.enqueuedBytes} B)`);
      log(
        `  body read as ${c.chunks} chunks, ${c.bytes} B (smallest ${c.sizes[0]}, median ${c.sizes[1]}, largest ${c.sizes[2]})`,
      );
    }
  }
  // --d1-apart: each target's D1 calls, recorded from one call, timed alone in the same rounds.
  if (options["d1-apart"]) {
    for (const subject of [...subjects]) {
      await recordD1(subject, "replayed alone");
      const alone = { ...subject, d1: "replay", label: `${subject.label} D1`, of: subject.label };
      await run(alone, 300);
      subjects.push(alone);
    }
  }

  if (!options.writes) {
    const perCall = Object.fromEntries(subjects.map((s) => [s.label, []]));
    for (let round = 0; round < rounds; round++) {
      for (const subject of round % 2 ? [...subjects].reverse() : subjects) {
        const before = threadsCpuMs(subject.tree.workerd);
        await run(subject, n);
        perCall[subject.label].push((threadsCpuMs(subject.tree.workerd) - before) / n);
      }
      process.stdout.write(round + 1 < rounds ? "." : ".\n");
    }
    const sorted = (xs) => [...xs].sort((a, b) => a - b);
    const quantile = (xs, q) => sorted(xs)[Math.floor((xs.length - 1) * q)];
    const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
    log(
      `${options.path}${options.data ? " (page data)" : ""}, ${n} calls per round, ${rounds} rounds: process CPU per call, median (all rounds)`,
    );
    for (const { label } of subjects) {
      const all = perCall[label].map((x) => x.toFixed(3)).join(" ");
      log(`  ${label.padEnd(LABEL)} ${median(perCall[label]).toFixed(3)} ms  (${all})`);
    }
    // --d1-apart: each target less what its D1 calls cost alone, round by round.
    for (const { label, of } of subjects.filter((subject) => subject.of)) {
      const rest = perCall[of].map((x, i) => x - perCall[label][i]);
      const all = rest.map((x) => x.toFixed(3)).join(" ");
      log(`  ${`${of} less D1`.padEnd(LABEL)} ${median(rest).toFixed(3)} ms  (${all})`);
    }
    // Each round's ratio, both targets measured moments apart: a burst of load from elsewhere falls
    // on both, so the ratios spread less than the times do. Their quartiles show how far to trust it.
    const ratio = (label, to) => {
      const ratios = perCall[label].map((x, i) => x / perCall[to][i]);
      const [q1, m, q3] = [0.25, 0.5, 0.75].map((q) => quantile(ratios, q).toFixed(3));
      log(`  ${label.padEnd(LABEL)} ${m}x [${q1} ${q3}]`);
    };
    if (other) {
      log(
        `this tree over ${options.against} (${other.commit.slice(0, 12)}), round by round: median [quartiles]`,
      );
      for (const target of targets) ratio(target, `${target}@old`);
    } else {
      const last = targets.at(-1);
      log(`ratio to ${last}, round by round: median [quartiles]`);
      for (const target of targets.slice(0, -1)) ratio(target, last);
    }
  }
  if (trees[0].inspectorPort)
    await profiles(trees[0].inspectorPort, (target, count) =>
      run({ target, tree: trees[0], d1: options["d1-memory"] ? "memory" : undefined }, count),
    );
} finally {
  for (const worker of workers) await worker.dispose();
  other?.remove();
  rmSync(tmp, { recursive: true, force: true });
}

/** A DevTools protocol session with the Worker's isolate (Node 20 needs --experimental-websocket). */
async function connectInspector(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  // The inspector proxy refuses sockets without an Origin (undici takes headers as a second argument).
  const socket = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: "http://localhost" } });
  await new Promise((resolve, reject) => Object.assign(socket, { onopen: resolve, onerror: reject }));
  let id = 0;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message.result);
  };
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

/** CPU self time per function and call for each target, the functions that differ most first. */
async function profiles(port, run) {
  const { send, close } = await connectInspector(port);
  const nameOf = ({ functionName, url, lineNumber }) =>
    `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""}`.trim();
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 50 });
  const byTarget = {};
  for (const t of targets) {
    await send("Profiler.start");
    await run(t, n);
    const { profile } = await send("Profiler.stop");
    if (options["profile-dir"]) {
      mkdirSync(options["profile-dir"], { recursive: true });
      const file = path.join(options["profile-dir"], `${t.replace(/[^\w.-]/g, "_")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      log(`${t}: profile written to ${file}`);
    }
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = (byTarget[t] = new Map());
    profile.samples.forEach((sample, i) => {
      const key = nameOf(nodes.get(sample).callFrame);
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / n);
    });
  }
  close();
  const total = (t) => [...byTarget[t].values()].reduce((a, b) => a + b, 0);
  log(
    `CPU self time, µs per call: ${targets.map((t) => `${t} ${total(t).toFixed(1)}`).join(", ")}; largest differences:`,
  );
  const keys = new Set(targets.flatMap((t) => [...byTarget[t].keys()]));
  const rows = [...keys].map((key) => ({ key, values: targets.map((t) => byTarget[t].get(key) ?? 0) }));
  // One target: its largest self times first.
  const spread = ({ values }) =>
    values.length === 1 ? values[0] : Math.max(...values) - Math.min(...values);
  rows.sort((a, b) => spread(b) - spread(a));
  log(`  ${targets.map((t) => t.padStart(10)).join(" ")}  function`);
  for (const { key, values } of rows.slice(0, 25))
    log(`  ${values.map((v) => v.toFixed(1).padStart(10)).join(" ")}  ${key.slice(0, 100)}`);
}
