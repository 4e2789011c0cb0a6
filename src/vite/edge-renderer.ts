// verge:edge-renderer: `react-dom/server` (and `react-dom/static`) for the built worker is React's
// edge renderer alone: the package's own entry for workerd would bring React's legacy string
// renderer too (~40 KB gzip nothing calls). The same file holds `prerender`, for pages with holes
// (server/shell.tsx).
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";
import { isClient, type Verge } from "./context.ts";

function edgeRenderer(root: string, production: boolean): string {
  const pkg = createRequire(path.join(root, "package.json")).resolve("react-dom/package.json");
  return path.join(
    path.dirname(pkg),
    "cjs",
    `react-dom-server.edge.${production ? "production" : "development"}.js`,
  );
}

export function edgeRendererPlugin(verge: Verge): Plugin {
  return {
    name: "verge:edge-renderer",
    // Before Vite's own resolver.
    enforce: "pre",
    sharedDuringBuild: true,
    resolveId(id) {
      const { config } = verge;
      if (/^react-dom\/(server|static)$/.test(id) && !isClient(this) && config.command === "build") {
        return edgeRenderer(config.root, config.isProduction);
      }
      return undefined;
    },
  };
}
