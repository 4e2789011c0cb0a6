// Reads a route table as the app does: the table module is bundled for Node with each `import()`
// of a page replaced by that page's file name, imported, and each route's `load()` called. So the
// client build learns which page serves which pattern from the table itself, in any formatting
// (a helper, a loop, a spread of another table), not from its text.
import * as esbuild from "esbuild";
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { clientSource } from "./client-source.mjs";

const PAGE_FILE = "__vergePageFile";

/**
 * The routes `routesFile` exports as `routes`, in order: pattern -> the page module's absolute
 * path. `publicEntry` is the file `verge` names; `scratchDir` (inside the project, so the
 * table's packages resolve) holds the bundle for the moment it is imported.
 */
export async function readRouteTable(routesFile, { publicEntry, scratchDir }) {
  const result = await esbuild.build({
    entryPoints: [routesFile],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    packages: "external",
    logLevel: "silent",
    loader: { ".css": "empty" },
    plugins: [
      // `verge` would otherwise be external too: its route helpers are what the table calls.
      clientSource({ entry: publicEntry, isPage: () => false }),
      pageFiles(),
    ],
  });
  const file = path.join(scratchDir, `.route-table-${randomUUID()}.mjs`);
  await writeFile(file, result.outputFiles[0].text);
  let table;
  try {
    ({ routes: table } = await import(pathToFileURL(file).href));
  } finally {
    await rm(file, { force: true });
  }
  const name = path.relative(process.cwd(), routesFile);
  if (!Array.isArray(table)) throw new Error(`${name} exports no \`routes\` array.`);
  const routes = [];
  for (const route of table) {
    const page = (await route.load())?.[PAGE_FILE];
    if (typeof page !== "string") {
      throw new Error(`${name}: the route ${route.path} does not load its page with import().`);
    }
    routes.push({ pattern: route.path, page });
  }
  return routes;
}

/** Every `import()` in the table becomes a module holding the imported file's name. */
function pageFiles() {
  return {
    name: "page-files",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === PAGE_FILE) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: PAGE_FILE,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: "page-file" };
      });
      build.onLoad({ filter: /.*/, namespace: "page-file" }, (args) => ({
        contents: `export const ${PAGE_FILE} = ${JSON.stringify(args.path)};`,
        loader: "js",
      }));
    },
  };
}
