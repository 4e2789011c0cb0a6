// Builds this tree's benchmark Workers with Vite (bench/vite.config.ts: the app with the
// benchmark's pages, the floors and the loop, production, minified) into dist/bench/, and writes
// dist/bench/workers.json: each Worker's bundle and the wrangler.json Vite wrote beside it (the
// configuration it deploys with, whose bindings it runs with). trees.mjs runs it in a tree's own folder, so a tree builds with its own Vite and plugins.
//   node bench/scripts/build.mjs [--readable]    --readable: not minified (for profiles)
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createBuilder } from "vite";

const root = path.resolve(import.meta.dirname, "../..");
if (process.argv.includes("--readable")) process.env.BENCH_MINIFY = "0";
process.env.NODE_ENV = "production";

const builder = await createBuilder({
  configFile: path.join(root, "bench/vite.config.ts"),
  logLevel: "warn",
});
await builder.buildApp();
const dir = (name) => {
  const { config } = builder.environments[name];
  return path.resolve(config.root, config.build.outDir);
};
/** The Worker built as `name`, run with the configuration of `like` (the Workers given inline run with theirs). */
const built = (name, like = name) => ({
  bundle: path.join(dir(name), "index.js"),
  config: path.join(dir(like), "wrangler.json"),
});
const workers = {
  app: built("app"),
  floor: built("floor"),
  floorLogged: built("floor_logged", "floor"),
  loop: built("loop", "app"),
};
await writeFile(path.join(root, "dist/bench/workers.json"), JSON.stringify(workers, null, 2));
