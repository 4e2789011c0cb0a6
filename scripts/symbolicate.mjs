// Maps the frames of a logged stack back to the sources (`npm run logs`): each frame in a bundle
// (the worker's index.js, /assets/*.js) goes through that bundle's source map, taken from the maps
// folder of the build the log line names (scripts/build-maps.mjs). node:module's SourceMap reads
// the maps.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { buildMapsDir } from "./build-maps.mjs";

/** V8's frames: "    at fn (file:1:2)", "    at async fn (file:1:2)", "    at file:1:2". */
const FRAME = /^(\s*at (?:async )?)(?:(.+?) \()?(\S+?):(\d+):(\d+)\)?$/;

/** The bundle a frame's file is, named as in the maps folder; undefined for any other file. */
function bundleName(file) {
  const chunk = /\/assets\/([\w.-]+\.js)$/.exec(file);
  if (chunk) return `assets/${chunk[1]}`;
  // The worker: `index.js` deployed, `…/dist/verge/index.js` under `npm run preview`. Builds from
  // before the move to Vite named it `worker.js` (and `…/dist/worker/worker.js` locally).
  if (/^index\.js$|(^|\/)dist\/verge\/index\.js$/.test(file)) return "index.js";
  return /(^|\/)worker\.js$/.test(file) ? "worker.js" : undefined;
}

/**
 * Returns symbolicate(stack, build): the stack with every frame it can map rewritten to
 * `src/…:line:column`, the others as they were. `appDir` holds the maps folder (dist/ for the
 * product); `onMissing(build)` is called once per build whose maps are not there.
 */
export function symbolicator({ appDir, onMissing = () => {} }) {
  const maps = new Map();
  const missing = new Set();
  const mapOf = (build, name) => {
    const file = path.join(buildMapsDir(appDir, build), `${name}.map`);
    if (!maps.has(file)) {
      maps.set(file, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, "utf8"))) : null);
      if (!maps.get(file) && !missing.has(build)) {
        missing.add(build);
        onMissing(build);
      }
    }
    return maps.get(file);
  };
  return function symbolicate(stack, build) {
    if (typeof stack !== "string" || typeof build !== "string" || !/^[\w-]+$/.test(build)) return stack;
    return stack
      .split("\n")
      .map((line) => {
        const frame = FRAME.exec(line);
        const name = frame && bundleName(frame[3]);
        const entry = name && mapOf(build, name)?.findEntry(Number(frame[4]) - 1, Number(frame[5]) - 1);
        if (!entry?.originalSource) return line;
        const [, at, fn] = frame;
        const where = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
        return fn ? `${at}${fn} (${where})` : `${at}${where}`;
      })
      .join("\n");
  };
}

/** A log line with its stacks (the first error's and any later ones') mapped to the sources. */
export function symbolicateLine(line, symbolicate) {
  if (!line.stack && !Array.isArray(line.errors)) return line;
  const mapped = { ...line };
  if (line.stack) mapped.stack = symbolicate(line.stack, line.build);
  if (Array.isArray(line.errors)) {
    mapped.errors = line.errors.map((error) =>
      error?.stack ? { ...error, stack: symbolicate(error.stack, line.build) } : error,
    );
  }
  return mapped;
}
