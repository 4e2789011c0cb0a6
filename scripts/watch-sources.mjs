// The client build's watch mode (`npm run dev`): rebuilds after each save under the folders the
// build reads, once the saved files are whole. An editor (or a test) that saves in place empties
// the file and then writes it: esbuild's own watch could build that moment (a page with no
// exports, or half a page whose server code it then kept), the page followed that build and
// broke, and esbuild's polling could then miss the final write altogether.
import { watch } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";

/** How long a file must stay the same to count as saved, and how long an empty one is waited on. */
const STILL_MS = 30;
const EMPTY_WAIT_MS = 1000;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sameFile = (a, b) => a?.size === b?.size && a?.mtimeMs === b?.mtimeMs && a?.ino === b?.ino;

/** Resolves once `file` has stayed the same for STILL_MS and is not empty (or EMPTY_WAIT_MS passed). */
async function whole(file) {
  const started = Date.now();
  let before = await stat(file).catch(() => null);
  for (;;) {
    await pause(STILL_MS);
    const now = await stat(file).catch(() => null);
    // Gone (deleted, or renamed away): the build says what that means.
    if (!now) return;
    if (sameFile(before, now) && (now.size > 0 || Date.now() - started > EMPTY_WAIT_MS)) return;
    before = now;
  }
}

/** Editors' own files beside a source (swap files, backups): never an input. */
const EDITOR_FILE = /(^|\/)(\.[^/]*|[^/]*~|[^/]*\.sw[a-p])$/;

/**
 * Watches the top-level folders of `inputs` (the project files the first build read, relative to
 * `root`) and runs `rebuild` after changes, one build at a time, each after the files saved
 * since the last one are whole; changes during a build start another after it.
 */
export function watchSources({ root, inputs, rebuild }) {
  const folders = new Set(
    inputs
      .map((input) => input.split("/"))
      // The project's own folders: not a virtual module, a package (which may live outside the
      // project, by a link), nor a file at the project's top.
      .filter(
        ([top, ...rest]) => rest.length > 0 && !top.includes(":") && top !== ".." && top !== "node_modules",
      )
      .filter(([, ...rest]) => !rest.includes("node_modules"))
      .map(([top]) => top),
  );
  const saved = new Set();
  let building = false;
  const build = async () => {
    if (building) return;
    building = true;
    while (saved.size > 0) {
      const files = [...saved];
      saved.clear();
      await Promise.all(files.map(whole));
      if (saved.size === 0) await rebuild();
    }
    building = false;
  };
  const watchers = [...folders].map((folder) =>
    watch(path.join(root, folder), { recursive: true }, (_, name) => {
      if (!name || EDITOR_FILE.test(String(name))) return;
      saved.add(path.join(root, folder, String(name)));
      void build();
    }),
  );
  return { close: () => watchers.forEach((watcher) => watcher.close()) };
}
