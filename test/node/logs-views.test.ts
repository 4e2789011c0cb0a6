// `npm run logs` views of where the time went: a waterfall per request (one ray, one digest, the N
// slowest) and percentiles per route, over a saved `npm run tail` capture and a local dev log.
import { describe, expect, it } from "vitest";
import { logs, tailEvent } from "./run-logs";

const line = (fields: Record<string, unknown>) => ({
  ts: "2026-11-24T10:00:00.000Z",
  level: "info",
  kind: "html",
  method: "GET",
  path: "/guestbook",
  route: "/guestbook",
  status: 200,
  ...fields,
});

/** A page with every kind of phase, 100 ms in all: the scale is then 0.48 columns per ms. */
const slow = line({
  ms: 100,
  ray: "ray-slow",
  d1_queries: 3,
  timings: {
    match: [0, 2],
    cache: [2, 8],
    loader: [10, 40],
    d1: [15, 20],
    shell: [50, 30],
    "deferred:comments": [50, 50],
  },
});
const failed = line({
  level: "error",
  status: 500,
  ms: 12,
  ray: "ray-failed",
  digest: "1k3d1p8x8fh",
  timings: { match: [0, 1], loader: [1, 11] },
});

/**
 * Twenty requests for the guestbook page taking 1..20 ms (loader: half of it; D1 on the first ten
 * only) and five for its page data, in no particular order.
 */
const many = [
  ...[13, 2, 20, 7, 11, 1, 16, 4, 9, 18, 5, 14, 3, 19, 8, 12, 6, 17, 10, 15].map((ms) =>
    line({
      ms,
      ray: `ray-${ms}`,
      timings: { match: [0, 0], loader: [0, ms / 2], ...(ms <= 10 ? { d1: [0, ms] } : {}) },
    }),
  ),
  ...[3, 1, 5, 2, 4].map((ms) =>
    line({ kind: "data", ms, ray: `ray-data-${ms}`, timings: { loader: [0, ms] } }),
  ),
];

/** The bar of a phase over the 48 columns: filled from one column to another, or a mark where it began. */
const bar = (from: number, to: number) =>
  to > from
    ? " ".repeat(from) + "█".repeat(to - from) + " ".repeat(48 - to)
    : " ".repeat(from) + "▏" + " ".repeat(47 - from);

const slowWaterfall = [
  "GET /guestbook 200 html 100ms  ray=ray-slow",
  `  match             |${bar(0, 1)}|      0.0 +     2.0 ms`,
  `  cache             |${bar(1, 5)}|      2.0 +     8.0 ms`,
  `  loader            |${bar(5, 24)}|     10.0 +    40.0 ms`,
  `  d1                |${bar(7, 17)}|     15.0 +    20.0 ms (3 queries)`,
  `  shell             |${bar(24, 38)}|     50.0 +    30.0 ms`,
  `  deferred:comments |${bar(24, 48)}|     50.0 +    50.0 ms`,
  `  total             |${bar(0, 48)}|      0.0 +   100.0 ms`,
].join("\n");

const saved = [slow, failed, ...many];
const devLog = ["[dev] building the client (development)", "[wrangler:info] Ready on http://localhost:8787"]
  .concat(saved.map((entry) => JSON.stringify(entry)))
  .join("\n");
const tailCapture = saved.map(tailEvent).join("\n") + "\n";

describe.each([
  ["a saved npm run tail capture", tailCapture],
  ["the local dev log", devLog],
])("npm run logs over %s", (_, input) => {
  it("draws one request's waterfall by its ray: a bar per phase on the request's own scale", () => {
    const { status, stdout } = logs(["--waterfall", "--ray", "ray-slow"], input);
    expect(status).toBe(0);
    expect(stdout).toBe(`${slowWaterfall}\n\n`);
  });

  it("draws the waterfall of the request a digest names", () => {
    const { stdout } = logs(["--waterfall", "--digest", "1k3d1p8x8fh"], input);
    expect(stdout.split("\n")[0]).toBe("GET /guestbook 500 html 12ms  ray=ray-failed  digest=1k3d1p8x8fh");
    expect(stdout).toContain(`  loader |${bar(4, 48)}|      1.0 +    11.0 ms`);
  });

  it("draws the N slowest requests, slowest first", () => {
    const { stdout } = logs(["--slowest", "3"], input);
    const heads = stdout.split("\n").filter((text) => text.startsWith("GET "));
    expect(heads).toEqual([
      "GET /guestbook 200 html 100ms  ray=ray-slow",
      "GET /guestbook 200 html 20ms  ray=ray-20",
      "GET /guestbook 200 html 19ms  ray=ray-19",
    ]);
    expect(stdout).toContain(slowWaterfall);
  });

  it("gives per route the count and p50/p95/p99 of the total and of each phase", () => {
    const { status, stdout } = logs(["--percentiles", "--path", "/guestbook"], input);
    expect(status).toBe(0);
    const table = stdout.split("\n\n").filter(Boolean);
    expect(table).toHaveLength(2);
    // Nearest rank over 22 requests (the twenty, the slow page, the failed one): p95 is the 21st.
    expect(table[0]).toBe(
      [
        "html /guestbook  22 requests",
        "  phase                 count     p50     p95     p99",
        "  total                    22    11.0    20.0   100.0",
        "  match                    22     0.0     1.0     2.0",
        "  cache                     1     8.0     8.0     8.0",
        "  loader                   22     5.5    11.0    40.0",
        "  d1                       11     6.0    20.0    20.0",
        "  shell                     1    30.0    30.0    30.0",
        "  deferred:comments         1    50.0    50.0    50.0",
      ].join("\n"),
    );
    expect(table[1]).toBe(
      [
        "data /guestbook  5 requests",
        "  phase      count     p50     p95     p99",
        "  total          5     3.0     5.0     5.0",
        "  loader         5     3.0     5.0     5.0",
      ].join("\n") + "\n",
    );
  });

  it("takes the filters first: without the failed request, p95 of 21 is the 20th", () => {
    const { stdout } = logs(
      ["--percentiles", "--kind", "html", "--status", "200", "--path", "/guestbook"],
      input,
    );
    const rows = stdout.split("\n");
    expect(rows[0]).toBe("html /guestbook  21 requests");
    expect(rows).toContain("  total                    21    11.0    20.0   100.0");
  });
});

describe("npm run logs' default view", () => {
  it("shows each phase's ms on one line, not the raw timings", () => {
    const { stdout } = logs([], JSON.stringify(slow));
    expect(stdout).toContain(
      "    ms: match 2 · cache 8 · loader 40 · d1 20 · shell 30 · deferred:comments 50\n",
    );
    expect(stdout).not.toContain("timings=");
  });
});

describe("npm run logs views' arguments", () => {
  it("refuses a --slowest that is not a count", () => {
    const { status, stderr } = logs(["--slowest", "all"], "");
    expect(status).toBe(2);
    expect(stderr).toContain('--slowest takes a number of requests (5), not "all"');
  });

  it("refuses two views at once", () => {
    const { status, stderr } = logs(["--percentiles", "--waterfall"], "");
    expect(status).toBe(2);
    expect(stderr).toContain("choose one");
  });

  it("says so when a line has no timings (written before they were logged)", () => {
    const { stdout } = logs(["--waterfall"], JSON.stringify(line({ ms: 4, ray: "old" })));
    expect(stdout).toContain("  (no timings on this line)");
  });

  it("shows a stored shell's answers apart, with the resume, in both views", () => {
    const shell = (ms: number, ray: string) =>
      line({
        ms,
        ray,
        cache: "shell",
        timings: { match: [0, 0.1], visitor: [0.1, 3], cache: [0.2, 0.6], resume: [0.9, 0.4] },
      });
    const input = [
      shell(4, "s1"),
      shell(6, "s2"),
      line({
        ms: 30,
        ray: "m1",
        cache: "miss",
        timings: { loader: [1, 9], shell: [10, 12], resume: [22, 1] },
      }),
    ]
      .map((one) => JSON.stringify(one))
      .join("\n");
    const table = logs(["--percentiles"], input).stdout.split("\n\n").filter(Boolean);
    expect(table.map((group) => group.split("\n")[0])).toEqual([
      "html /guestbook (cache: shell)  2 requests",
      "html /guestbook (cache: miss)  1 request",
    ]);
    expect(table[0]).toContain("  resume          2     0.4     0.4     0.4");
    expect(logs(["--waterfall", "--ray", "s1"], input).stdout).toContain(
      "GET /guestbook 200 html 4ms  ray=s1  cache=shell",
    );
  });
});
