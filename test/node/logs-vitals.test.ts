// `npm run logs -- --vitals`: the relay's Web Vitals lines, recorded, read back as the 75th
// percentile of each metric per route and per build, and the routes over Google's thresholds.
import { describe, expect, it } from "vitest";
import { logs, tailEvent } from "./run-logs";

/** A relay line for one view's report, as the relay writes it. */
const report = (vitals: Record<string, unknown>) => ({
  ts: "2026-11-26T10:00:00.000Z",
  level: "info",
  kind: "relay",
  method: "POST",
  path: "/monitoring",
  route: null,
  status: 200,
  ms: 20,
  ray: "0123456789abcdef",
  project: "1",
  vitals: { build: "aaaaaaaaaaaa", navigation: "navigate", ...vitals },
});

// The guestbook: LCP 1000..4000 over four views (p75, nearest rank: the 3rd of 4, 3000), INP 100..400
// (p75 300), CLS fine. Home: all good. One home view from another build.
const lines = [
  ...[1000, 2000, 3000, 4000].map((lcp, i) =>
    report({ route: "/guestbook", lcp, inp: (i + 1) * 100, cls: 0.01, fcp: 800, ttfb: 100 + i }),
  ),
  report({ route: "/", lcp: 900, cls: 0.2, fcp: 600, ttfb: 50 }),
  report({ route: "/", lcp: 1100, cls: 0, fcp: 700, ttfb: 70 }),
  report({
    route: "/",
    lcp: 1200,
    cls: 0.05,
    fcp: 650,
    ttfb: 60,
    build: "bbbbbbbbbbbb",
    navigation: "client",
  }),
  report({ route: "/", lcp: 1000, cls: 0.01, fcp: 500, ttfb: 40 }),
];
const others = [
  { ...report({}), vitals: undefined, event_id: "a".repeat(32) }, // an error report through the relay
  { kind: "html", method: "GET", path: "/", route: "/", status: 200, ms: 5, ray: "r" },
];

/** The table's rows by their first cell. */
function rows(stdout: string): Map<string, string[]> {
  return new Map(
    stdout
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter((cells) => cells.length === 7)
      .map((cells) => [cells[0]!, cells.slice(1)]),
  );
}

describe("npm run logs -- --vitals", () => {
  const input = [...lines, ...others].map((line) => JSON.stringify(line)).join("\n");

  it("gives the views and the p75 of LCP, INP, CLS, FCP and TTFB per route, marking what fails", () => {
    const { status, stdout } = logs(["--vitals"], input);
    expect(status).toBe(0);
    const table = rows(stdout);
    expect(table.get("route")).toEqual(["views", "LCP", "INP", "CLS", "FCP", "TTFB"]);
    expect(table.get("/guestbook")).toEqual(["4", "3000!", "300!", "0.010", "800", "102"]);
    expect(table.get("/")).toEqual(["4", "1100", "-", "0.050", "650", "60"]);
    expect(stdout).toContain("Routes failing Google's thresholds:\n  /guestbook: LCP 3000! INP 300!");
    expect(stdout).not.toMatch(/\n {2}\/: /);
  });

  it("gives the same per build", () => {
    const table = rows(logs(["--vitals"], input).stdout);
    expect(table.get("build")).toEqual(["views", "LCP", "INP", "CLS", "FCP", "TTFB"]);
    expect(table.get("aaaaaaaaaaaa")).toEqual(["7", "3000!", "300!", "0.010", "800", "102"]);
    expect(table.get("bbbbbbbbbbbb")).toEqual(["1", "1200", "-", "0.050", "650", "60"]);
  });

  it("reads wrangler tail's events too, and says so when no route fails", () => {
    const good = lines.slice(4).map((line) => tailEvent(line));
    const { stdout } = logs(["--vitals"], good.join("\n"));
    expect(rows(stdout).get("/")).toEqual(["4", "1100", "-", "0.050", "650", "60"]);
    expect(stdout).toContain("Routes failing Google's thresholds: none");
  });

  it("is a view of its own: not with --json or --percentiles", () => {
    const { status, stderr } = logs(["--vitals", "--percentiles"], input);
    expect(status).toBe(2);
    expect(stderr).toContain("different views");
  });
});
