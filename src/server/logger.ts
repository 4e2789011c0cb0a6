// One JSON log line per request, on stdout: readable in `wrangler tail --format json`,
// Workers Logs, and `npm run dev` alike (pipe either into `npm run logs`).
import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv, CacheState, CapturedError, RequestKind, RequestLog } from "./context";
import { waitUntil } from "./capture";
import { timingsField } from "./timings";

export interface LogLine {
  ts: string;
  level: "info" | "warn" | "error";
  kind: RequestKind;
  method: string;
  path: string;
  route: string | null;
  status: number;
  ms: number;
  ray: string;
  /** Pages that opt into the edge cache only. */
  cache?: CacheState;
  /** The first error the request captured. */
  digest?: string;
  message?: string;
  stack?: string;
  /**
   * The build id (the client manifest's), on lines with errors: `npm run logs` finds the source
   * maps of the bundle that wrote the stack by it.
   */
  build?: string;
  /** Every later error of the same request (two failing streamed sections, say). */
  errors?: CapturedError[];
  [field: string]: unknown;
}

/** Adds `name` to the request's log line (beside what other handlers added). */
export function logField(c: AppContext, name: string, value: unknown): void {
  (c.get("log").fields ??= {})[name] = value;
}

/** Paths longer than this are cut in the line (the request is refused with 414 anyway). */
const MAX_LOGGED_PATH = 512;

/**
 * The path of a request URL. The runtime hands the Worker an already parsed and serialised
 * URL, so its pathname is the text between the authority and the query.
 */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = Math.min(query < 0 ? url.length : query, hash < 0 ? url.length : hash);
  return url.slice(start, end);
}

function loggedPath(url: string): string {
  const path = pathOf(url);
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/** Looks console.log up at each call, so tests can spy on it after the app is built. */
const stdout = (line: string) => console.log(line);

function generateRay(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 16);
}

function levelOf(status: number, log: RequestLog): LogLine["level"] {
  if (log.errors.length > 0 || status >= 500) return "error";
  return status >= 400 ? "warn" : "info";
}

/**
 * Opens the request's log record and writes it as one line when the response is complete
 * (after the last streamed chunk, so errors inside Suspense sections are on it).
 */
export function requestLogger(write: (line: string) => void = stdout): MiddlewareHandler<AppEnv> {
  return async function requestLogger(c, next) {
    const started = performance.now();
    const ray = c.req.header("cf-ray") || generateRay();
    const log: RequestLog = { route: null, errors: [] };
    c.set("ray", ray);
    c.set("log", log);

    await next();

    const finish = () => {
      const timings = c.get("timings");
      if (timings) {
        logField(c, "timings", timingsField(timings));
        if (timings.d1) logField(c, "d1_queries", timings.d1.queries);
      }
      const [first, ...later] = log.errors;
      const line: LogLine = {
        ts: new Date().toISOString(),
        level: levelOf(c.res.status, log),
        kind: c.get("kind").kind ?? "html",
        method: c.req.method,
        path: loggedPath(c.req.url),
        route: log.route,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ray,
        ...log.fields,
        ...first,
        ...(first ? { build: c.get("app").manifest.build } : {}),
        ...(later.length > 0 ? { errors: later } : {}),
      };
      write(JSON.stringify(line));
    };
    if (log.pending) waitUntil(c, log.pending.then(finish, finish));
    else finish();
  };
}

/**
 * Holds the request's log line until `done` settles (a streamed body still rendering). If `done`
 * has already settled when the handler returns (nothing was left to stream), the line is
 * written at once and no waitUntil is registered.
 */
export function logWhenSettled(log: RequestLog, done: Promise<unknown>): void {
  log.pending = done;
  // Queued now, so it runs before the logger resumes if `done` is already settled.
  const settled = () => {
    if (log.pending === done) log.pending = undefined;
  };
  done.then(settled, settled);
}
