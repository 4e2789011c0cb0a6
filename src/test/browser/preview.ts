// A started preview for browser tests: the product as `npm run preview` serves it (the production
// build in workerd) on a free port with local D1 of its own, and its log lines by ray.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/** One JSON log line of the worker (`kind`, `status`, `ray`, `route`, `ms`, ...). */
export type LogLine = Record<string, unknown>;

export interface Preview {
  /** Where it listens, e.g. http://127.0.0.1:40123 (`byName(url)` for WebAuthn). */
  url: string;
  /** The file holding everything the server printed: its JSON log lines among it. */
  logFile: string;
  /** The server's process id (workerd runs under it); 0 for a preview this file did not start. */
  pid: number;
  /** The worker's log lines so far; of one request when `ray` names it (`documentRay(page)`). */
  log(ray?: string): Promise<LogLine[]>;
  /** Stops the server (and its workerd); nothing for a preview this file did not start. */
  stop(): Promise<void>;
}

export interface PreviewOptions {
  /** Another app's vite.config.ts (the project's own if unset). */
  config?: string;
  /** Serve the last build as it is (`--no-build`) instead of building first. */
  built?: boolean;
  /** Vars for this run (`--var NAME:VALUE`), beside `.dev.vars`. */
  vars?: Record<string, string>;
  /** The project's folder (scripts/serve.mjs is there): the current directory if unset. */
  root?: string;
  /** A preview already running (e.g. one a global setup started): used, not started. */
  url?: string;
  /** Where the server's output goes (of a preview already running: where it went). */
  logFile?: string;
  /** Its local state (D1) here, kept at stop; a temporary folder, removed at stop, if unset. */
  persistTo?: string;
  /** Called with the state folder before the server starts (to copy a database into it, say). */
  prepare?: (state: string) => Promise<void>;
  /** It serves once GET `path` answers `status`: `/` and 200 if unset. */
  ready?: { path: string; status: number };
  /** How long one start may take to answer (120 s if unset); then it starts again, 3 starts in all. */
  attemptMs?: number;
}

/** The worker's JSON log lines in a server's output file. */
export async function readLogLines(logFile: string): Promise<LogLine[]> {
  const text = await readFile(logFile, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}

/** A TCP port free on 127.0.0.1 right now, for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function preview(url: string, logFile: string, pid: number, stop: () => Promise<void>): Preview {
  return {
    url,
    logFile,
    pid,
    log: async (ray) => (await readLogLines(logFile)).filter((line) => ray === undefined || line.ray === ray),
    stop,
  };
}

/** The last lines a server printed, without wrangler's boxes, for the message that says it did not start. */
async function lastLines(logFile: string): Promise<string> {
  const text = await readFile(logFile, "utf8").catch(() => "");
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !/^[├│└┌]/.test(line));
  return lines.slice(-15).join("\n");
}

/**
 * Resolves once the server `child` runs (`name`, for messages) answers GET `path` at `url` with
 * `status`; rejects, with the last lines of its output in `logFile`, if it exits first or does not
 * answer within `ms`. `again` on the error: whether another start may do better (no answer, or a
 * port taken between finding it free and binding it), not a build that failed.
 */
export async function answered(
  name: string,
  child: ChildProcess,
  url: string,
  logFile: string,
  { path: probe, status: wanted, ms }: { path: string; status: number; ms: number },
): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    // Stopped by a signal (a teardown before it answered), a child has no exit code.
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode !== null ? `code ${child.exitCode}` : child.signalCode;
      const output = await lastLines(logFile);
      const again = /EADDRINUSE|already in use/i.test(output);
      throw Object.assign(new Error(`${name} exited (${how}); its output ends:\n${output}`), { again });
    }
    const status = await fetch(url + probe, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.body?.cancel().then(() => response.status) ?? response.status,
      () => 0,
    );
    if (status === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const output = await lastLines(logFile);
  const message = `${name} did not answer ${wanted} at ${url}${probe} within ${ms / 1000} s; its output ends:\n${output}`;
  throw Object.assign(new Error(message), { again: true });
}

/** How long one start may take to answer unless PreviewOptions.attemptMs says otherwise. */
const ATTEMPT_MS = 120_000;

/** One start of `npm run preview`, not waited for: `ready` resolves once it serves. */
export interface LaunchedPreview {
  url: string;
  pid: number;
  logFile: string;
  /**
   * Resolves once it serves; rejects, with its output's last lines, if it exits or does not
   * answer (`again` on the error: whether another start may do better).
   */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `npm run preview` (scripts/serve.mjs) once on `port` with its state in `state` and its
 * output in `logFile`. startPreview starts it until it serves; a global setup that hands out the
 * address before the server answers starts it with this.
 */
export function launchPreview(
  options: PreviewOptions & { port: number; inspectorPort: number; state: string; logFile: string },
): LaunchedPreview {
  const { port, state, logFile } = options;
  const args = [
    ...["scripts/serve.mjs", "preview", "--ip", "127.0.0.1", "--port", String(port)],
    ...["--persist-to", state, "--inspector-port", String(options.inspectorPort)],
    ...(options.config ? ["--config", options.config] : []),
    ...(options.built ? ["--no-build"] : []),
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };
  const child = spawn(process.execPath, args, {
    cwd: options.root ?? process.cwd(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => out.end(resolve));
  };
  const url = `http://127.0.0.1:${port}`;
  const ready = answered("npm run preview", child, url, logFile, {
    ...(options.ready ?? { path: "/", status: 200 }),
    ms: options.attemptMs ?? ATTEMPT_MS,
  });
  return { url, pid: child.pid ?? 0, logFile, ready, stop };
}

/** How many times startPreview starts a server that does not answer. */
const STARTS = 3;

/**
 * Starts `npm run preview` (scripts/serve.mjs) on a free port with local D1 of its own, and
 * resolves once it serves. A port found free can be taken before the server binds it (by another
 * run beside this one): a start that does not answer, or finds its port taken, is tried again on
 * other ports; a failed build is not. The failure says why, with the server's output.
 */
export async function startPreview(options: PreviewOptions = {}): Promise<Preview> {
  if (options.url) return preview(options.url, options.logFile ?? "", 0, async () => {});
  const state = options.persistTo ?? (await mkdtemp(path.join(os.tmpdir(), "verge-preview-")));
  const removeState = async () => {
    if (!options.persistTo) await rm(state, { recursive: true, force: true });
  };
  await options.prepare?.(state);
  for (let start = 1; ; start++) {
    const launched = launchPreview({
      ...options,
      port: await freePort(),
      inspectorPort: await freePort(),
      state,
      logFile: options.logFile ?? path.join(state, "preview.log"),
    });
    const failure = await launched.ready.then(
      () => null,
      (error: Error & { again?: boolean }) => error,
    );
    const stop = () => launched.stop().then(removeState);
    if (!failure) return preview(launched.url, launched.logFile, launched.pid, stop);
    await launched.stop();
    if (start === STARTS || !failure.again) {
      await removeState();
      throw failure;
    }
    console.warn(`${failure.message}\nStarting it again (start ${start + 1} of ${STARTS}).`);
  }
}

/** A preview for the calling test file, started in beforeAll and stopped after its tests. */
export function usePreview(options: PreviewOptions = {}): () => Preview {
  let started: Preview | undefined;
  beforeAll(
    async () => {
      started = await startPreview(options);
    },
    STARTS * (options.attemptMs ?? ATTEMPT_MS) + 30_000,
  );
  afterAll(() => started?.stop());
  return () => {
    if (!started) throw new Error("usePreview(): the preview starts in beforeAll; call it inside tests");
    return started;
  };
}
