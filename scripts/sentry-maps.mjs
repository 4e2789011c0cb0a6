// The Sentry side of `npm run deploy`: checks that a build's maps folder (scripts/build-maps.mjs)
// is what Sentry pairs by debug ID, as sentry-cli itself reads it, and uploads it with sentry-cli.
import { spawn } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { readDebugId } from "./debug-ids.mjs";

const root = path.resolve(import.meta.dirname, "..");
const sentryCli = path.join(root, "node_modules/.bin/sentry-cli");
/** What sentry-cli needs to upload; it reads them from the environment itself. */
export const SENTRY_VARIABLES = ["SENTRY_AUTH_TOKEN", "SENTRY_ORG", "SENTRY_PROJECT"];

/** Runs sentry-cli; resolves to its output, or rejects with it. Asynchronous: a test serves its API. */
function sentry(args, { env = process.env, show = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(sentryCli, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8").on("data", (text) => {
        output += text;
        if (show) process.stdout.write(text);
      });
    }
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`sentry-cli ${args.join(" ")} failed (exit code ${code})\n${output}`));
    });
  });
}

/**
 * Each JavaScript file of `dir` and its debug ID, after checking that its map carries the same
 * one and that sentry-cli's own injection (a dry run: it changes nothing) finds it already there.
 * Throws, saying which file, otherwise.
 */
export async function checkDebugIds(dir) {
  const ids = new Map();
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(".js"));
  for (const file of files) {
    const id = readDebugId(await readFile(path.join(dir, file), "utf8"));
    const map = JSON.parse(await readFile(path.join(dir, `${file}.map`), "utf8").catch(() => "{}"));
    if (!id) throw new Error(`${file} carries no debug ID`);
    if (map.debug_id !== id) throw new Error(`${file}.map does not carry ${file}'s debug ID (${id})`);
    ids.set(path.join(dir, file), id);
  }
  // Its report lists the files that "already have debug ids" as "<id> - <file>".
  const report = await sentry(["sourcemaps", "inject", "--dry-run", dir]);
  const found = new Map(
    [...report.matchAll(/^\s+([0-9a-f-]{36}) - (.+)$/gm)].map(([, id, file]) => [file, id]),
  );
  for (const [file, id] of ids) {
    if (found.get(file) !== id) throw new Error(`sentry-cli does not read ${file}'s debug ID ${id}`);
  }
  return ids;
}

/**
 * Uploads the build's bundles and maps as one artifact bundle of release `build`, its report
 * shown (unless `quiet`). Sentry pairs each bundle with its map by their debug ID.
 */
export async function uploadSourceMaps(dir, build, { env = process.env, quiet = false } = {}) {
  await sentry(["sourcemaps", "upload", "--release", build, dir], { env, show: !quiet });
}
