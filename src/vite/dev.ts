// verge:dev: the dev server: wrangler dev's port, saves seen once whole, no build nor any file
// but the app's sources and assets served (dev-guard.ts), the page's entry loading Vite's client, React Refresh and verge's dev hooks
// first, and a save that changes only what the worker runs made a data refresh (dev-data.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { isClient, rel, type Verge } from "./context.ts";
import { serverEdits } from "./dev-data.ts";
import { markRuns } from "./dev-refresh.ts";
import { deniedFiles, refuseBuilds, refuseNonSources } from "./dev-guard.ts";

/** The browser's dev hooks (client/dev.ts). */
const DEV_CLIENT = fileURLToPath(new URL("../../client/dev.ts", import.meta.url));

export function dev(verge: Verge): Plugin {
  /** What the browser was last given of each file, before other transforms (dev-data.ts). */
  const browserSource = new Map<string, string>();
  return {
    name: "verge:dev",
    enforce: "pre",
    sharedDuringBuild: true,
    config(user) {
      const root = path.resolve(user.root ?? process.cwd());
      return {
        server: {
          // wrangler dev's port, unless set elsewhere.
          port: user.server?.port ?? 8787,
          // A save is seen once the file is whole: an editor that writes in place empties the file,
          // then writes it, and the watcher keeps one change of a file per 50 ms, so it could see
          // the empty moment and drop the write (the page then kept a fixed syntax error's overlay).
          watch: { awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 }, ...user.server?.watch },
          fs: { deny: deniedFiles(path.resolve(root, user.build?.outDir ?? "dist")) },
        },
      };
    },
    configureServer(server) {
      verge.serving = true;
      const { root, build } = server.config;
      server.middlewares.use(refuseBuilds(root, path.resolve(root, build.outDir)));
      server.middlewares.use(refuseNonSources(root));
    },
    transform: {
      // After verge:server-only's (listed before it): what the browser is given of the file.
      order: "pre",
      handler(code, id) {
        if (!verge.serving || !isClient(this) || id.includes("/node_modules/") || id.startsWith("\0")) {
          return undefined;
        }
        browserSource.set(id.split("?")[0]!, code);
        // A module that makes components (formFor) says where its top-level code runs.
        if (rel(verge, id) !== verge.entry) return markRuns(rel(verge, id), code) ?? undefined;
        // The entry loads Vite's client, React Refresh's runtime and verge's dev hooks before
        // anything else (React Refresh must hook into React before React loads).
        const first = ["/@vite/client", "@vitejs/plugin-react/preamble", DEV_CLIENT];
        return `${first.map((module) => `import ${JSON.stringify(module)};`).join(" ")} ${code}`;
      },
    },
    hotUpdate: serverEdits(browserSource),
  };
}
