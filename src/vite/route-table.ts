// verge:route-table: the browser's first load carries no route table, so it does not grow with
// the app. In the browser's build the product's table module (src/app/routes.ts) is an empty one
// for whoever imports it; the router learns each line from the server when it needs it
// (server/route-discovery.ts). The table itself is still built, as a chunk no page loads, so that
// every page and layout it imports stays a chunk of its own, which the manifest names.
import { existsSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { isClient, type Verge } from "./context.ts";

/** What the browser's modules get for the table: no lines. */
const EMPTY_TABLE = "\0virtual:verge/empty-routes";
/** The real table, imported only by a function of the empty one that nothing calls. */
const TABLE = "virtual:verge/route-table";
const RESOLVED_TABLE = `\0${TABLE}`;

const stem = (file: string) => path.basename(file).replace(/\.[cm]?[jt]sx?$/, "");

export function routeTable(verge: Verge): Plugin {
  let table: string | null | undefined;
  /** The table's file, or null when the app has none where verge looks (then nothing changes). */
  const tableFile = () => {
    if (table === undefined) {
      const file = path.resolve(verge.config.root, verge.routes);
      table = existsSync(file) ? file : null;
    }
    return table;
  };
  return {
    name: "verge:route-table",
    enforce: "pre",
    sharedDuringBuild: true,
    async resolveId(source, importer, options) {
      if (source === TABLE) return RESOLVED_TABLE;
      const file = tableFile();
      if (!file || !isClient(this) || !importer || importer === RESOLVED_TABLE) return undefined;
      if (stem(source) !== stem(file)) return undefined;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === file ? EMPTY_TABLE : undefined;
    },
    load(id) {
      if (id === RESOLVED_TABLE) return `export { routes } from ${JSON.stringify(tableFile())};`;
      if (id !== EMPTY_TABLE) return undefined;
      // A property nothing reads, of a call the bundler must keep: it keeps the real table, and
      // so each page's chunk, in the build.
      const keep = `Object.defineProperty(routes, "table", { value: () => import(${JSON.stringify(TABLE)}) });`;
      return `export const routes = [];\n${verge.config.command === "build" ? keep : ""}\n`;
    },
  };
}
