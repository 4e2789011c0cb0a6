// Each build's bundles and source maps, kept outside what is served, in <app>/sourcemaps/<build id>/
// (dist/sourcemaps/ for the product): what `npm run deploy` uploads to Sentry, and where
// `npm run logs` finds the map of the build that wrote a log line (its `build` field).
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** Development builds kept besides the newest (each rebuild under `npm run dev` is a build). */
const DEV_BUILDS_KEPT = 10;
const DEV_MARK = "development";

/** The folder of `build`'s maps, for an app built into `appDir` (dist/: dist/client/, dist/verge/). */
export function buildMapsDir(appDir, build) {
  return path.join(appDir, "sourcemaps", build);
}

/**
 * Writes built files (`name` as the build names them: "index.js", the worker, and
 * "assets/home-X.js") and their portable maps (scripts/debug-ids.mjs) into the build's folder.
 */
export async function keepBuildMaps({ appDir, build, dev, files }) {
  const dir = buildMapsDir(appDir, build);
  for (const { name, code, map } of files) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeAtomically(file, code);
    await writeAtomically(`${file}.map`, map);
  }
  if (dev) {
    await writeFile(path.join(dir, DEV_MARK), "a development build: pruned after newer ones\n");
    await pruneDevBuilds(path.dirname(dir));
  }
  return dir;
}

/** A reader (`npm run logs`, a test) sees the old file or the new one, never a part of one. */
async function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/** Drops all but the newest development builds; production builds stay (they may be deployed). */
async function pruneDevBuilds(parent) {
  const dev = [];
  for (const name of await readdir(parent)) {
    try {
      dev.push({ name, time: (await stat(path.join(parent, name, DEV_MARK))).mtimeMs });
    } catch {
      // not a development build
    }
  }
  dev.sort((a, b) => b.time - a.time);
  for (const { name } of dev.slice(DEV_BUILDS_KEPT)) {
    await rm(path.join(parent, name), { recursive: true, force: true });
  }
}
