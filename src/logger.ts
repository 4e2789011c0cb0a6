// One JSON log line per request, on stdout: readable in `wrangler tail --format json`,
// Workers Logs, and `npm run dev` alike (pipe either into `npm run logs`).
import type { MiddlewareHandler } from "hono";
import type { AppEnv, RequestLog } from "./context";
import { errorDigest } from "./digest";
import type { ReportError } from "./context";

export interface LogLine {
  ts: string;
  level: "info" | "warn" | "error";
  kind: RequestLog["kind"];
  method: string;
  path: string;
  route: string | null;
  status: number;
  ms: number;
  ray: string;
  digest?: string;
  message?: string;
  stack?: string;
  [field: string]: unknown;
}

/** Paths longer than this are cut in the line (the request is refused with 414 anyway). */
const MAX_LOGGED_PATH = 512;

/**
 * The path of a request URL. The runtime hands the Worker an already parsed and serialised
 * URL, so its pathname is the text between the authority and the query: sliced rather than
 * parsed again per request (the line is written for every request).
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
  if (log.error || status >= 500) return "error";
  return status >= 400 ? "warn" : "info";
}

export interface LoggerOptions {
  write?: (line: string) => void;
  reportError: ReportError;
}

/**
 * Opens the request's log record and its error capture, and writes the line when the
 * response is complete (after the last streamed chunk, so errors inside Suspense count).
 */
export function requestLogger({ write = stdout, reportError }: LoggerOptions): MiddlewareHandler<AppEnv> {
  return async function requestLogger(c, next) {
    const started = performance.now();
    const ray = c.req.header("cf-ray") || generateRay();
    const log: RequestLog = { kind: "html", route: null };
    // Created on the first capture: most requests capture nothing.
    let captured: WeakMap<object, string> | undefined;
    c.set("ray", ray);
    c.set("log", log);
    c.set("capture", (error) => {
      const known = typeof error === "object" && error !== null ? captured?.get(error) : undefined;
      if (known) return known;
      const digest = errorDigest(error, ray);
      if (typeof error === "object" && error !== null) (captured ??= new WeakMap()).set(error, digest);
      log.error ??= {
        digest,
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      };
      const reported = Promise.resolve()
        .then(() => reportError({ error, digest, route: log.route, ray, request: c.req.raw, env: c.env }))
        .catch((failure: unknown) => console.error("reportError failed", failure));
      waitUntil(c, reported);
      return digest;
    });

    await next();

    const finish = () => {
      const line: LogLine = {
        ts: new Date().toISOString(),
        level: levelOf(c.res.status, log),
        kind: log.kind,
        method: c.req.method,
        path: loggedPath(c.req.url),
        route: log.route,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ray,
        ...log.fields,
        ...log.error,
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
 * written at once and the request registers no waitUntil, which measurably costs the runtime
 * per request (BENCHMARKS.md, performance pass 3).
 */
export function logWhenSettled(log: RequestLog, done: Promise<unknown>): void {
  log.pending = done;
  // Queued now, so it runs before the logger resumes if `done` is already settled.
  const settled = () => {
    if (log.pending === done) log.pending = undefined;
  };
  done.then(settled, settled);
}

function waitUntil(
  c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } },
  promise: Promise<unknown>,
) {
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    // No execution context (a unit test calling app.request): the promise still runs.
  }
}
