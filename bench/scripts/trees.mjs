// The Workers a tree of verge benchmarks, each built by that tree's own build: this tree's with
// Vite (build.mjs), or another commit's, checked out in a temporary worktree with its own packages
// (`--against <ref>`), so an old tree is measured as it deployed. Each built Worker is its bundle
// and the wrangler config whose bindings it runs with (miniflare.mjs).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

/** The esbuild-era entries (scripts/build-worker.mjs), by the name build.mjs gives each Worker. */
const ENTRIES = {
  app: ["bench/workers/app-worker.tsx", "wrangler.toml"],
  floor: ["bench/workers/floor-worker.tsx", "bench/workers/wrangler.toml"],
  floorLogged: ["bench/workers/floor-logged-worker.tsx", "bench/workers/wrangler.toml"],
  loop: ["bench/workers/loop-worker.tsx", "wrangler.toml"],
};

/** Runs a command in `cwd`, its output shown only when it fails. */
function run(cwd, command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, NODE_ENV: "production", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(" ")} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * Builds the benchmark's Workers of the tree in `dir` (production; `readable`: not minified) and
 * returns them as { app, floor, floorLogged, loop } of { bundle, config }. A tree with
 * bench/vite.config.ts builds with it; an older one with its scripts/build-client.mjs and
 * scripts/build-worker.mjs, as its own benchmark did.
 */
export async function buildTree(dir, { readable = false } = {}) {
  if (existsSync(path.join(dir, "bench/vite.config.ts"))) {
    run(dir, process.execPath, ["bench/scripts/build.mjs", ...(readable ? ["--readable"] : [])]);
    return JSON.parse(await readFile(path.join(dir, "dist/bench/workers.json"), "utf8"));
  }
  if (!existsSync(path.join(dir, "scripts/build-worker.mjs")))
    throw new Error(`${dir} has neither bench/vite.config.ts nor scripts/build-worker.mjs: no build known`);
  run(dir, process.execPath, ["scripts/build-client.mjs"]);
  const workers = {};
  for (const [name, [entry, config]] of Object.entries(ENTRIES)) {
    if (!existsSync(path.join(dir, entry))) continue;
    const out = `dist/bench/${name}`;
    const options = JSON.stringify({ entry, out, production: true, minify: !readable });
    const script = `import { buildWorker } from "./scripts/build-worker.mjs"; await buildWorker(${options});`;
    run(dir, process.execPath, ["--input-type=module", "-e", script]);
    workers[name] = { bundle: path.join(dir, out, "worker.js"), config: path.join(dir, config) };
  }
  return workers;
}

/** npm as `npm run` runs it (the same npm), else the one on PATH. */
function npm() {
  const cli = process.env.npm_execpath;
  return cli?.endsWith("npm-cli.js") ? [process.execPath, [cli]] : ["npm", []];
}

/**
 * `ref` checked out in a temporary git worktree, its packages installed from its own lockfile
 * (`npm ci`). Returns its folder, commit and a `remove()`.
 */
export async function checkoutTree(ref, log) {
  const commit = run(root, "git", ["rev-parse", "--verify", `${ref}^{commit}`]).trim();
  const dir = await mkdtemp(path.join(os.tmpdir(), `verge-against-${commit.slice(0, 8)}-`));
  log(`checking out ${ref} (${commit.slice(0, 12)}) into ${dir} and installing its packages (npm ci)`);
  run(root, "git", ["worktree", "add", "--detach", dir, commit]);
  const remove = () => {
    spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: root });
  };
  try {
    const [command, args] = npm();
    run(dir, command, [...args, "ci", "--include=dev", "--prefer-offline", "--no-audit", "--no-fund"], {
      NODE_ENV: "",
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, commit, remove };
}
