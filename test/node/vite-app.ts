// Builds a small temporary app with `vite build`'s client step, as vite.config.ts sets it up (verge's
// plugin and React's), through Vite's JavaScript API. Its sources live in the project
// (test/node/.tmp-*/) so that `verge` and React resolve as they do for src/app/.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { build, type Plugin, type Rolldown } from "vite";
import { verge } from "../../src/vite/index.ts";
import { readBuild, root, type ClientBuild } from "./dist";

/** Every file of a built client folder, as text. */
export function builtText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), "utf8"))
    .join("\n");
}

export interface TempApp {
  /** The app's folder, and a file in it relative to the project root. */
  dir: string;
  rel: (file: string) => string;
  write: (files: Record<string, string>) => void;
  /**
   * The production client build of `entry` (a file of the app): the chunks as built, and what
   * verge left beside them. `out` is the build's folder (its own dist/), one per build; `publicDir`
   * a folder of the app copied into the build as it is (none by default).
   */
  build: (
    entry: string,
    out: string,
    publicDir?: string,
  ) => Promise<{ output: Rolldown.OutputChunk[]; report: ClientBuild; dir: string }>;
  remove: () => void;
}

export function tempApp(): TempApp {
  const dir = mkdtempSync(path.join(root, "test/node/.tmp-"));
  const rel = (file: string) => path.relative(root, path.join(dir, file)).split(path.sep).join("/");
  return {
    dir,
    rel,
    write(files) {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
    },
    async build(entry, out, publicDir) {
      const outRoot = path.join(dir, out);
      const result = await productionBuild({
        entry: rel(entry),
        outDir: path.join(outRoot, "client"),
        publicDir: publicDir && path.join(dir, publicDir),
      });
      const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
      const output = outputs.flatMap((o) => o.output).filter((o) => o.type === "chunk");
      return { output, report: readBuild(outRoot), dir: outRoot };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The client build `vite build` makes of `entry` into `outDir` (the plugin keeps its maps and
 * client-build.json in the folder above). NODE_ENV is "production" during it, as under
 * `npm run build` (vitest sets "test", which would give React's development build).
 */
export async function productionBuild({
  entry,
  outDir,
  publicDir,
  routes,
  plugins = [],
}: {
  entry?: string;
  outDir: string;
  publicDir?: string;
  /** verge's `routes` option. */
  routes?: string;
  /** Plugins of the test's own, after verge's. */
  plugins?: Plugin[];
}) {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    return await build({
      configFile: false,
      root,
      logLevel: "silent",
      mode: "production",
      plugins: [verge({ ...(entry && { entry }), ...(routes && { routes }) }), ...plugins, react()],
      build: { outDir, emptyOutDir: true },
      ...(publicDir ? { publicDir } : {}),
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
