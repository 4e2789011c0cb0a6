/// <reference types="node" />
// verge/vite: what is verge's own in a Vite build, beside @vitejs/plugin-react and
// @cloudflare/vite-plugin, as small plugins of one job each. Build-time code: the one folder
// under src/ that runs in Node, never in a bundle (Node loads it through node.mjs).
import type { Plugin } from "vite";
import { buildConfig } from "./build-config.ts";
import type { Verge } from "./context.ts";
import { debugIds } from "./debug-ids.ts";
import { dev } from "./dev.ts";
import { compileAtStart } from "./compile-at-start.ts";
import { rendererPlugin, type Renderer } from "./renderer.ts";
import { localVars } from "./local.ts";
import { manifest } from "./manifest.ts";
import { migrations } from "./migrations.ts";
import { routeTable } from "./route-table.ts";
import { preview } from "./preview.ts";
import { serverOnly } from "./server-only.ts";
import { staticFiles } from "./static-files.ts";
import { oddMethods } from "./odd-methods.ts";
import { requestTarget } from "./request-target.ts";

export { localVars };
export { BUILD_REPORT } from "./context.ts";
export { MANIFEST_MODULE } from "./manifest.ts";

export interface VergeOptions {
  /** The browser entry, from the project root (default `client/entry.tsx`). */
  entry?: string;
  /** React's server build that renders pages (default "node": docs/decisions.md, "The worker bundle"). */
  renderer?: Renderer;
  /**
   * The route table's module, from the project root (default `src/app/routes.ts`): the browser's
   * first load leaves it out and discovers its lines.
   */
  routes?: string;
  /**
   * Compile React as the Worker starts rather than during its first request (default true:
   * docs/decisions.md, "React compiled as the Worker starts").
   */
  compileAtStart?: boolean;
}

export function verge({
  entry = "client/entry.tsx",
  routes = "src/app/routes.ts",
  renderer = "node",
  compileAtStart: atStart = true,
}: VergeOptions = {}): Plugin[] {
  // Set by verge:config once Vite has resolved the config, before any other hook reads it.
  const shared: Verge = { entry, routes, config: undefined!, serving: false };
  return [
    // First: the local servers answer odd methods before the Cloudflare plugin tries to build a
    // Request of them.
    oddMethods(),
    // Then a request target naming another host, before anything builds a URL of it.
    requestTarget(),
    buildConfig(shared),
    manifest(shared),
    routeTable(shared),
    rendererPlugin(shared, renderer),
    // Before verge:server-only, which cuts code: it reads the route lines where they are written.
    staticFiles(shared),
    // Before verge:dev: the dev server records what the browser is given, after the worker's
    // exports are gone.
    serverOnly(shared),
    dev(shared),
    compileAtStart(atStart),
    debugIds(shared),
    migrations(),
    preview(),
  ];
}
