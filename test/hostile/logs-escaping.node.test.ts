// `npm run logs` with visitor text in the lines it reads: control characters reach the
// operator's terminal only as visible escapes, and cannot start a line of their own.
import { describe, expect, it } from "vitest";
import { logs as run } from "../node/run-logs";

const logs = (args: string[], input: string) => run(args, input).stdout;

/** C0 controls, DEL and C1 controls (U+009B is CSI, ESC [ in one character), and bidi overrides. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const hostile = {
  ts: "2026-11-21T14:00:00.000Z",
  level: "error",
  kind: "relay",
  method: "POST",
  path: "/monitoring",
  route: null,
  status: 500,
  ms: 1,
  ray: "ray-\u001b[8m",
  digest: "k3j9x0a1b2c",
  event_id: "\u001b]0;owned\u0007\u001b[2J",
  note: "\u009b31mred\u202eevil",
  message: "boom\n2026-11-21 14:00:01.000 INFO  200 GET /admin html 1ms  ray=fake",
  stack: "Error: boom\n    at handler (\u001b[31mindex.js:1:1)\r\n    at x",
};

describe("npm run logs with control characters in a line", () => {
  it("prints them escaped in the readable form", () => {
    const stdout = logs([], JSON.stringify(hostile));
    expect(stdout).not.toMatch(UNSAFE);
    expect(stdout).toContain("event_id=\\x1b]0;owned\\x07\\x1b[2J");
    expect(stdout).toContain("note=\\x9b31mred\\u202eevil");
    expect(stdout).toContain("ray=ray-\\x1b[8m");
  });

  it("keeps a message's newline from starting a line of its own", () => {
    const printed = logs([], JSON.stringify(hostile)).split("\n");
    expect(printed.filter((line) => line.startsWith("2026-"))).toHaveLength(1);
    expect(printed).toContain("    boom\\x0a2026-11-21 14:00:01.000 INFO  200 GET /admin html 1ms  ray=fake");
  });

  it("prints them escaped with --json, as JSON that still parses to the same line", () => {
    const stdout = logs(["--json"], JSON.stringify(hostile));
    expect(stdout).not.toMatch(UNSAFE);
    expect(JSON.parse(stdout)).toEqual(hostile);
  });
});
