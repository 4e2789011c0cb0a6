// `npm test`'s runner: the browser tests in one vitest process, beside another that runs the
// workerd and Node tests. In one process vitest runs the browser project (one worker: its files
// share one set of servers and go one at a time) only after the others, though the browser files
// spend most of their time waiting on pages. Side by side, `npm test` takes a minute less.
//
// node test/run.mjs [vitest arguments]: each process gets them (a file filter, -t, a reporter;
// the dot reporter unless one is named).
// The browser process's output is held until the other's is done, so the two never interleave.
// `--outputFile=F` (the JSON reporter's file) is written by each to a file of its own, then
// merged into F. The exit code is non-zero when either failed.
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const given = process.argv.slice(2);
// A dot a test: a passing run is a few lines, and a failure prints whole at the end. Another
// reporter can be asked for (`npm test -- --reporter=verbose`).
const args = given.some((arg) => arg.startsWith("--reporter")) ? given : ["--reporter=dot", ...given];
const OUTPUT = "--outputFile=";
const outputFile = args.find((arg) => arg.startsWith(OUTPUT))?.slice(OUTPUT.length);
const partOf = (name) => outputFile?.replace(/(\.json)?$/, `.${name}$1`);

/**
 * workerd's line as the pool closes a test file's worker: the pool's own connection ending, which
 * every passing run printed several times and which says nothing about a test.
 */
const CLOSED = "exception = workerd/api/web-socket.c++:821: disconnected: WebSocket peer disconnected\n";
// Byte for byte (latin1): a chunk may end inside a character of the dot reporter's.
const quiet = (chunk) =>
  chunk.includes(CLOSED) ? Buffer.from(chunk.toString("latin1").replaceAll(CLOSED, ""), "latin1") : chunk;

/** Starts `vitest run` for `projects`; its output waits (held) until `show()`. */
function start(projects, part) {
  const own = args.map((arg) => (part && arg.startsWith(OUTPUT) ? OUTPUT + partOf(part) : arg));
  const child = spawn(
    process.execPath,
    ["node_modules/vitest/vitest.mjs", "run", ...projects, "--passWithNoTests", ...own],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const held = [];
  let shown = false;
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    from.on("data", (data) => {
      const chunk = quiet(data);
      if (shown) to.write(chunk);
      else held.push([to, chunk]);
    });
  }
  const done = new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
  const show = () => {
    shown = true;
    for (const [to, chunk] of held.splice(0)) to.write(chunk);
  };
  return { done, show };
}

/** Whether the browser tests can run (test/support/chromium.ts says what to do otherwise). */
function chromiumThere() {
  try {
    accessSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// A project named, or no Chromium: one vitest (without Chromium it stops before any test, saying so).
if (!chromiumThere() || args.some((arg) => arg === "--project" || arg.startsWith("--project="))) {
  const only = start([]);
  only.show();
  process.exit(await only.done);
}

const others = start(["--project", "workerd*", "--project", "node"], "others");
const browser = start(["--project", "chromium"], "chromium");
others.show();
const othersCode = await others.done;
process.stdout.write("\n==> the browser tests, run beside those above\n");
browser.show();
const browserCode = await browser.done;

if (outputFile) {
  // One report, as one vitest would have written it: counts summed, results joined.
  const missing = ["others", "chromium"].filter((part) => !existsSync(partOf(part)));
  if (missing.length > 0) {
    console.error(`no JSON report from the ${missing.join(" and ")} tests: see their output above`);
    process.exit(1);
  }
  const parts = ["others", "chromium"].map((part) => JSON.parse(readFileSync(partOf(part), "utf8")));
  const merged = { ...parts[0], testResults: parts.flatMap((part) => part.testResults) };
  for (const key of Object.keys(merged)) {
    if (typeof parts[0][key] === "number" && key.startsWith("num"))
      merged[key] = parts[0][key] + parts[1][key];
  }
  merged.success = parts.every((part) => part.success);
  writeFileSync(outputFile, JSON.stringify(merged));
  for (const part of ["others", "chromium"]) rmSync(partOf(part));
}
process.exit(othersCode || browserCode);
