// Starts what the browser tests talk to: the fake Sentry ingest, and `wrangler dev` on a
// free port with a fresh local D1 (migrations applied) and SENTRY_DSN pointing at the ingest.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startFakeIngest } from "../support/fake-ingest";
import { freePort, wranglerDevArgs } from "../../scripts/local-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the app under test listens, e.g. http://127.0.0.1:40123. */
    baseURL: string;
    /** The fake ingest's address (control API under /__control). */
    ingestURL: string;
    /** File holding everything `wrangler dev` printed: the worker's JSON log lines among it. */
    logFile: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
const wrangler = path.join(root, "node_modules/.bin/wrangler");

async function waitUntilReady(url: string, child: { exitCode: number | null }, log: string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early; see ${log}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer 200 at ${url} within 90 s; see ${log}`);
}

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, "dist/manifest.json"))) {
    throw new Error("The client is not built: run `npm run build` (npm test does) before the browser tests.");
  }
  const env = { ...process.env, NODE_ENV: "production", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };
  const state = await mkdtemp(path.join(os.tmpdir(), "verge-e2e-"));
  const migrate = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  if (migrate.status !== 0)
    throw new Error(`applying migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const ingest = await startFakeIngest();
  const port = await freePort();
  // Kept after the run (dist/ is not committed): when a browser test fails, .ci/run prints its tail.
  const logFile = path.join(root, "dist/e2e-wrangler.log");
  const out = createWriteStream(logFile);
  const args = wranglerDevArgs({ port, persistTo: state, extra: ["--var", `SENTRY_DSN:${ingest.dsn}`] });
  const child = spawn(wrangler, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseURL, child, logFile);
  } catch (error) {
    child.kill("SIGTERM");
    await ingest.close();
    throw error;
  }
  project.provide("baseURL", baseURL);
  project.provide("ingestURL", ingest.url);
  project.provide("logFile", logFile);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    await ingest.close();
    out.end();
    await rm(state, { recursive: true, force: true });
  };
}
