// The worker's log lines in workerd, by request: the worker writes one JSON line per request with
// console.log (src/server/logger.ts looks it up at each call), named by the request's ray, which
// a visitor sets (cf-ray, as Cloudflare's edge does) so a test can ask for its request's lines.

/** One JSON log line of the worker (`kind`, `status`, `ray`, `route`, `ms`, ...). */
export type LogLine = Record<string, unknown>;

/** The lines written since the first visitor was made, at most the last `KEPT`. */
const written: LogLine[] = [];
const KEPT = 5000;
/** Marks our console.log, so one replaced since (a test's spy, put back) is wrapped again. */
const RECORDER = Symbol.for("verge.test.log-recorder");
/** Whether a recorder is printing: one wrapped inside another keeps a line once, not twice. */
let printing = false;

/** Keeps the worker's JSON lines from now on (what console.log prints is still printed). */
export function recordLogLines(): void {
  if (RECORDER in console.log) return;
  const print = console.log;
  const recorder = (...args: unknown[]) => {
    const [first] = args;
    if (!printing && typeof first === "string" && first.startsWith("{")) {
      try {
        written.push(JSON.parse(first) as LogLine);
        if (written.length > KEPT) written.shift();
      } catch {
        // Not a log line of the worker's: printed below all the same.
      }
    }
    const outer = printing;
    printing = true;
    try {
      print.apply(console, args);
    } finally {
      printing = outer;
    }
  };
  console.log = Object.assign(recorder, { [RECORDER]: true });
}

const rays = new WeakMap<Response, string>();

/** Notes the ray a visitor sent for the answer `response`. */
export function noteRay(response: Response, ray: string): void {
  rays.set(response, ray);
}

/** A new ray, as Cloudflare's look (16 hex digits). */
export function newRay(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}

/**
 * The worker's log lines of one request: a visitor's answer, or a ray. Waits (up to `timeout` ms)
 * for the first, since the line is written once the answer's body is done; read the body first.
 */
export async function serverLog(of: Response | string, timeout = 5000): Promise<LogLine[]> {
  recordLogLines();
  const ray = typeof of === "string" ? of : rays.get(of);
  if (!ray) throw new Error("serverLog: not an answer to a visitor of verge/test (no ray was sent)");
  const deadline = Date.now() + timeout;
  for (;;) {
    const lines = written.filter((line) => line.ray === ray);
    if (lines.length > 0 || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
