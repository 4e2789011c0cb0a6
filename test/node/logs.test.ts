// `npm run logs`: finds request lines in `wrangler tail --format json` and `npm run dev` output,
// filters them, and prints them; run as a user runs it, with the text on stdin.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { logs, tailEvent } from "./run-logs";

const script = path.resolve(import.meta.dirname, "../../scripts/logs.mjs");

const line = (fields: Record<string, unknown>) => ({
  ts: "2026-11-21T14:00:00.000Z",
  level: "info",
  kind: "html",
  method: "GET",
  path: "/",
  route: "/",
  status: 200,
  ms: 4.2,
  ray: "ray-ok",
  ...fields,
});

const failing = line({
  level: "error",
  path: "/errors/loader",
  route: "/errors/loader",
  status: 500,
  ray: "8c2f1a0b9d3e4f5a-CDG",
  digest: "k3j9x0a1b2c",
  message: "Loader failed on purpose (/errors/loader)",
  stack: "Error: Loader failed on purpose (/errors/loader)\n    at loader (index.js:10:11)",
});
const notFound = line({ level: "warn", path: "/nope", route: null, status: 404, ray: "ray-404" });
const relayed = line({
  kind: "relay",
  method: "POST",
  path: "/monitoring",
  route: null,
  ray: "ray-relay",
  project: "1",
  event_id: "e".repeat(32),
  bytes: 812,
});

const tailOutput = [failing, notFound, relayed].map(tailEvent).join("\n") + "\n";
const devOutput = [
  "[dev] building the client (development)",
  " ⛅️ wrangler 4.86.0",
  "[wrangler:info] Ready on http://localhost:8787",
  JSON.stringify(failing),
  "[wrangler:info] GET /errors/loader 500 Internal Server Error (12ms)",
  JSON.stringify(notFound),
  "{ not json at all }",
  JSON.stringify(relayed),
].join("\n");

describe.each([
  ["wrangler tail --format json", tailOutput],
  ["npm run dev", devOutput],
])("npm run logs reading %s output", (_, input) => {
  it("prints every request line, with the error's message and stack", () => {
    const { status, stdout } = logs([], input);
    expect(status).toBe(0);
    const printed = stdout.split("\n").filter((l) => /^\d{4}-/.test(l));
    expect(printed).toHaveLength(3);
    expect(printed[0]).toBe(
      "2026-11-21 14:00:00.000 ERROR 500 GET /errors/loader html 4.2ms  ray=8c2f1a0b9d3e4f5a-CDG  digest=k3j9x0a1b2c",
    );
    expect(stdout).toContain("    Loader failed on purpose (/errors/loader)\n    at loader (index.js:10:11)");
    expect(stdout).toContain(`project=1 event_id=${"e".repeat(32)} bytes=812`);
  });

  it.each([
    [["--digest", "k3j9x0a1b2c"], ["8c2f1a0b9d3e4f5a-CDG"]],
    [["--ray", "ray-404"], ["ray-404"]],
    [["--status", "5xx"], ["8c2f1a0b9d3e4f5a-CDG"]],
    [["--status", "4xx"], ["ray-404"]],
    [["--status", "200"], ["ray-relay"]],
    [["--kind", "relay"], ["ray-relay"]],
    [["--path", "/errors/loader"], ["8c2f1a0b9d3e4f5a-CDG"]],
    [["--path", "/errors*"], ["8c2f1a0b9d3e4f5a-CDG"]],
    [["--status", "5xx", "--kind", "relay"], []],
  ])("with %j keeps only the matching lines", (args, rays) => {
    const { stdout } = logs([...args, "--json"], input);
    const kept =
      stdout.trim() === ""
        ? []
        : stdout
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l).ray);
    expect(kept).toEqual(rays);
  });
});

describe("npm run logs arguments", () => {
  it("refuses an unknown --status with exit code 2 and the usage", () => {
    const { status, stderr } = logs(["--status", "bad"], "");
    expect(status).toBe(2);
    expect(stderr).toContain('--status takes a code (404) or a class (5xx), not "bad"');
    expect(stderr).toContain("usage: npm run logs");
  });

  it("refuses an unknown flag with exit code 2", () => {
    const { status, stderr } = logs(["--colour"], "");
    expect(status).toBe(2);
    expect(stderr).toContain("usage: npm run logs");
  });

  it("prints a tail event whose text arrives in two pieces split mid-object, as a live pipe may", async () => {
    const child = spawn(process.execPath, [script, "--digest", "k3j9x0a1b2c", "--json"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    const half = Math.floor(tailOutput.length / 6);
    child.stdin.write(tailOutput.slice(0, half));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stdout).toBe("");
    child.stdin.end(tailOutput.slice(half));
    await new Promise((resolve) => child.on("close", resolve));
    expect(JSON.parse(stdout)).toEqual(failing);
  });
});

describe("npm run logs stack frames", () => {
  // A build id with no maps in dist/sourcemaps/ (the maps of real builds: test/e2e/readable-stacks).
  const unknownBuild = line({
    ...failing,
    stack: "Error: Loader failed on purpose (/errors/loader)\n    at Nv (index.js:1:28417)",
    build: "ffffffffffff",
  });

  it("leaves the frames as logged, and says so, when the line's build has no maps here", () => {
    const { status, stdout, stderr } = logs([], JSON.stringify(unknownBuild));
    expect(status).toBe(0);
    expect(stdout).toContain("    at Nv (index.js:1:28417)");
    expect(stderr).toBe(
      "[logs] no source maps for build ffffffffffff in dist/sourcemaps/: its frames are left as logged\n",
    );
  });

  it("with --raw prints the frames as logged without looking for maps", () => {
    const { status, stdout, stderr } = logs(["--raw", "--json"], JSON.stringify(unknownBuild));
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual(unknownBuild);
    expect(stderr).toBe("");
  });
});

describe("npm run logs reading a scheduled run's line", () => {
  // What src/server/scheduled.ts writes: no method, path nor status; the cron and what it swept.
  const run = {
    ts: "2026-11-21T14:17:00.000Z",
    level: "error",
    kind: "scheduled",
    cron: "17 * * * *",
    ms: 31.4,
    ray: "ray-cron",
    swept: { sessions: 12 },
    timings: { "job:sessions": [0, 3.1], d1: [0.2, 2.8] },
    d1_queries: 1,
    digest: "a1b2c3d4e5f",
    message: "D1_ERROR: no such table: security_events",
  };
  // The tail shows a cron's event as it shows a request's, its log lines under `logs`.
  const tailed = JSON.stringify({
    outcome: "ok",
    scriptName: "verge",
    exceptions: [],
    logs: [{ message: [JSON.stringify(run)], level: "log", timestamp: 1795270620000 }],
    eventTimestamp: 1795270620000,
    event: { cron: run.cron, scheduledTime: 1795270620000 },
  });

  it.each([
    ["npm run dev", [JSON.stringify(failing), JSON.stringify(run)].join("\n")],
    ["wrangler tail --format json", [tailEvent(failing), tailed].join("\n")],
  ])("keeps it with --kind scheduled in %s output, and prints its cron and what it swept", (_, input) => {
    const { stdout } = logs(["--kind", "scheduled", "--json"], input);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([run]);
    const printed = logs(["--kind", "scheduled"], input).stdout;
    expect(printed).toContain(
      '2026-11-21 14:17:00.000 ERROR cron "17 * * * *" scheduled 31.4ms  ray=ray-cron  digest=a1b2c3d4e5f',
    );
    expect(printed).toContain('swept={"sessions":12} d1_queries=1');
    expect(printed).toContain("job:sessions 3.1");
    expect(logs(["--digest", "a1b2c3d4e5f", "--json"], input).stdout).toContain('"ray":"ray-cron"');
  });
});
