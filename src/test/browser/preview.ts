// A started preview for browser tests: the product as `npm run preview` serves it (the production
// build in workerd) on a free port with local D1 of its own, and its log lines by ray.
import { spawn } from "node:child_process";
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
  logFile?: string;
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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

function preview(url: string, logFile: string, stop: () => Promise<void>): Preview {
  return {
    url,
    logFile,
    log: async (ray) => (await readLogLines(logFile)).filter((line) => ray === undefined || line.ray === ray),
    stop,
  };
}

/** Starts `npm run preview` (scripts/serve.mjs) and resolves once it answers 200 at `/`. */
export async function startPreview(options: PreviewOptions = {}): Promise<Preview> {
  if (options.url) return preview(options.url, options.logFile ?? "", async () => {});
  const root = options.root ?? process.cwd();
  const state = await mkdtemp(path.join(os.tmpdir(), "verge-preview-"));
  const port = await freePort();
  const args = [
    ...["scripts/serve.mjs", "preview", "--ip", "127.0.0.1", "--port", String(port)],
    ...["--persist-to", state, "--inspector-port", String(await freePort())],
    ...(options.config ? ["--config", options.config] : []),
    ...(options.built ? ["--no-build"] : []),
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const logFile = path.join(state, "preview.log");
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    out.end();
    await rm(state, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; ;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const tail = (await readFile(logFile, "utf8").catch(() => "")).split("\n").slice(-15).join("\n");
      await stop();
      throw new Error(`npm run preview did not answer at ${url}; its output ends:\n${tail}`);
    }
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return preview(url, logFile, stop);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A preview for the calling test file, started in beforeAll and stopped after its tests. */
export function usePreview(options: PreviewOptions = {}): () => Preview {
  let started: Preview | undefined;
  beforeAll(async () => {
    started = await startPreview(options);
  }, 180_000);
  afterAll(() => started?.stop());
  return () => {
    if (!started) throw new Error("usePreview(): the preview starts in beforeAll; call it inside tests");
    return started;
  };
}
