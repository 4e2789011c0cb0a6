// Starts what the browser tests talk to: the fake Sentry ingest; the product as `npm run preview`
// runs it (`npm test`'s production build in workerd, edge cache on) on a free port with a fresh
// local D1 (migrations applied) and SENTRY_DSN pointing at the ingest; the tests' own app
// (test/fixture-app) built and previewed the same way; and `npm run dev` itself, in a copy of the
// project (its own local state), for what only the dev server does; a run of some files starts only
// the servers they use. The servers start while the workerd and node tests run: each browser file
// waits for them first (servers-ready.ts).
import { createServer } from "node:http";
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { answered, freePort, launchPreview } from "../../src/test/browser/preview";
import { startFakeIngest } from "../support/fake-ingest";
import { seedMigratedD1 } from "./migrated-d1";
import { usesOfFile, type Uses } from "./server-uses";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the product under test listens, e.g. http://127.0.0.1:40123. */
    baseURL: string;
    /** Where the tests' own app listens (twins, echo). */
    fixtureURL: string;
    /** The fake ingest's address (control API under /__control). */
    ingestURL: string;
    /** File holding everything the product's server printed: its JSON log lines among it. */
    logFile: string;
    /** Where `npm run dev` (the product, in a copy of the project) listens. */
    devURL: string;
    /** The copy of the project `npm run dev` serves: tests may edit its sources, and restore them. */
    devRoot: string;
    /** The process ids of each server (`npm run preview`, `npm run dev`): workerd runs under it. */
    serverPids: Record<"preview" | "dev", number>;
    /** GET: answers 200 once every server answers, or 500 saying which did not (servers-ready.ts). */
    serversReadyURL: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };
/** Vars for a server's run (`--var NAME:VALUE`). */
type Vars = Record<string, string>;

/**
 * `npm run preview` (verge/test/browser's launchPreview) on a free port with its local state in
 * `persistTo`: the product as `npm test` built it (the Node tests read that build meanwhile), or
 * the app of another vite config, built first. Its address is handed out before it answers.
 */
async function startPreview(options: { logFile: string; persistTo: string; config?: string; vars: Vars }) {
  const launched = launchPreview({
    root,
    config: options.config,
    built: !options.config,
    vars: options.vars,
    port: await freePort(),
    inspectorPort: await freePort(),
    state: options.persistTo,
    logFile: options.logFile,
  });
  return { url: launched.url, pid: launched.pid, stop: launched.stop, ready: launched.ready };
}

/** Resolves once no process of group `pgid` is left; throws, after killing them, past 8 s (within vitest's close timeout). */
async function groupGone(pgid: number) {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const deadline = Date.now() + 8_000; Date.now() < deadline;) {
    if (!alive()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(-pgid, "SIGKILL");
  // vitest reports an error thrown at teardown but still exits 0: fail the run itself.
  process.exitCode = 1;
  throw new Error("npm run dev left processes running 8 s after SIGTERM (killed now)");
}

/** `npm run dev`'s `child`, to serve `url`: `ready` once it answers 200 there; its output goes to `logFile`. */
function served(child: ChildProcess, url: string, logFile: string) {
  const out = createWriteStream(logFile);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // A group leader, it stops with the server and workerd under it.
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    out.end();
    // As a developer's Ctrl-C would, SIGTERM must end every process npm run dev started.
    await groupGone(child.pid!);
  };
  const ready = answered("npm run dev", child, url, logFile, { path: "/", status: 200, ms: 90_000 });
  return { url, stop, pid: child.pid!, ready };
}

/** What `npm run dev` reads: its scripts, the sources, the migrations and the configuration. */
const PROJECT = [
  ...["package.json", "vite.config.ts", "wrangler.toml", "tsconfig.json"],
  ...["scripts", "src", "client", "migrations"],
];

/** `npm run dev` as a developer runs it, in a copy of the project (its packages linked). */
async function startNpmRunDev(copy: string, vars: Vars) {
  for (const entry of PROJECT) await cp(path.join(root, entry), path.join(copy, entry), { recursive: true });
  // Its packages linked one by one, not node_modules whole: Vite keeps its optimized dependencies
  // in node_modules/.vite, and a dev server of the project itself (dev-ip.node.test.ts starts
  // some) finds that cache made for another root and deletes it, under this one's running pages.
  await mkdir(path.join(copy, "node_modules"));
  for (const entry of await readdir(path.join(root, "node_modules"))) {
    if (entry === ".vite" || entry === ".cache") continue;
    await symlink(path.join(root, "node_modules", entry), path.join(copy, "node_modules", entry));
  }
  // Its local state, where `npm run dev` keeps it when not told (--persist-to).
  await seedMigratedD1(path.join(copy, ".wrangler/state"));
  const port = await freePort();
  const args = [
    ...["--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(await freePort())],
    ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const child = spawn("npm", ["run", "dev", "--", ...args], {
    cwd: copy,
    detached: true,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return served(child, `http://127.0.0.1:${port}`, path.join(root, "dist/e2e-dev.log"));
}

/**
 * The servers the files of this run talk to, each only when a file names it. A whole run starts
 * all three at once, as the workerd tests run beside; one file (`npm run test:chromium --
 * layouts`) starts only what it uses, and a file that starts its own preview none.
 */
async function serversOf(project: TestProject): Promise<Uses> {
  const filters = runFilters(project);
  if (filters.length === 0) return { preview: true, fixture: true, dev: true };
  const { testFiles } = await project.globTestFiles(filters);
  const uses = testFiles.map(usesOfFile);
  return {
    preview: uses.some((use) => use.preview),
    fixture: uses.some((use) => use.fixture),
    dev: uses.some((use) => use.dev),
  };
}

/**
 * The command line's file filters (`vitest run layouts`, `... fetcher.test.ts:12`), without line
 * numbers. Vitest 4 keeps them on its instance only, outside its typed API (its config has none):
 * if that changes, say so, rather than start every server for one file again unnoticed.
 */
function runFilters(project: TestProject): string[] {
  const vitest = project.vitest as unknown as { filenamePattern?: string[] };
  if (!("filenamePattern" in vitest)) {
    throw new Error("global-setup.ts: vitest no longer keeps the run's file filters in `filenamePattern`");
  }
  return (vitest.filenamePattern ?? []).map((filter) => filter.replace(/:\d+$/, ""));
}

/** A server this run does not start: its address refuses, and `ready` is at once. */
async function notStarted() {
  return {
    url: `http://127.0.0.1:${await freePort()}`,
    stop: async () => {},
    pid: 0,
    ready: Promise.resolve(),
  };
}

export default async function setup(project: TestProject) {
  const uses = await serversOf(project);
  // The run's preview serves the last build as it is; a file that starts its own preview builds.
  if (uses.preview && !existsSync(path.join(root, "dist/client-build.json"))) {
    throw new Error("The app is not built: run `npm run build` (npm test does) before the browser tests.");
  }
  // The servers' output goes to dist/ (kept after the run), built or not.
  await mkdir(path.join(root, "dist"), { recursive: true });
  const state = await mkdtemp(path.join(os.tmpdir(), "verge-e2e-"));

  const ingest = await startFakeIngest();
  const dsn = { SENTRY_DSN: ingest.dsn };
  // Kept after the run (dist/ is not committed): when a browser test fails, .ci/run prints its tail.
  const logFile = path.join(root, "dist/e2e-preview.log");
  const devRoot = await mkdtemp(path.join(os.tmpdir(), "verge-dev-"));
  // Started side by side, not waited for here: each spends most of its start-up bundling or
  // waiting on its own process, while the other projects' tests run.
  const started = await Promise.allSettled([
    uses.preview
      ? seedMigratedD1(state).then(() => startPreview({ logFile, persistTo: state, vars: dsn }))
      : notStarted(),
    uses.fixture
      ? startPreview({
          logFile: path.join(root, "dist/e2e-fixture.log"),
          persistTo: path.join(state, "fixture"),
          config: "test/fixture-app/vite.config.ts",
          // Web Vitals sampling off: what a deploy with VITALS_SAMPLE_RATE "0" sends (nothing).
          vars: { ...dsn, VITALS_SAMPLE_RATE: "0" },
        })
      : notStarted(),
    uses.dev ? startNpmRunDev(devRoot, dsn) : notStarted(),
  ]);
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    for (const server of servers) await server.stop();
    await ingest.close();
    await rm(devRoot, { recursive: true, force: true });
    throw failed.reason;
  }
  // Each server's outcome: null once it answers, or why it did not start.
  const [preview, fixture, dev] = servers.map((server) =>
    server.ready.then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
  );
  // `?preview&fixture&dev`: a file waits for the servers it names, not for the others.
  const readiness = createServer((request, response) => {
    const named = new URL(request.url ?? "/", "http://localhost").searchParams;
    const awaited = [
      named.has("preview") && preview,
      named.has("fixture") && fixture,
      named.has("dev") && dev,
    ];
    void Promise.all(awaited.filter((outcome) => outcome !== false)).then((outcomes) => {
      const failure = outcomes.find((outcome) => outcome !== null) ?? null;
      response.writeHead(failure === null ? 200 : 500, { "Content-Type": "text/plain" });
      response.end(failure ?? "ready");
    });
  });
  await new Promise<void>((resolve) => readiness.listen(0, "127.0.0.1", resolve));
  const { port } = readiness.address() as { port: number };
  project.provide("baseURL", servers[0]!.url);
  project.provide("fixtureURL", servers[1]!.url);
  project.provide("devURL", servers[2]!.url);
  project.provide("devRoot", devRoot);
  project.provide("serverPids", { preview: servers[0]!.pid, dev: servers[2]!.pid });
  project.provide("ingestURL", ingest.url);
  project.provide("logFile", logFile);
  project.provide("serversReadyURL", `http://127.0.0.1:${port}/`);

  return async () => {
    readiness.close();
    for (const server of servers) await server.stop();
    await ingest.close();
    await rm(state, { recursive: true, force: true });
    await rm(devRoot, { recursive: true, force: true });
  };
}
