// What verge's plugins share (index.ts makes one for them all): the browser entry, the resolved
// config, and the client build's manifest, which the worker's build (after it) embeds.
import path from "node:path";
import type { ResolvedConfig } from "vite";
import type { ClientManifest } from "../server/manifest.ts";

export interface Verge {
  /** The browser entry, from the project root. */
  entry: string;
  /** The route table's module, from the project root (verge:route-table). */
  routes: string;
  /** Set once Vite has resolved its config (verge:config). */
  config: ResolvedConfig;
  /** The client build's manifest, once the client is built (verge:manifest). */
  built?: ClientManifest;
  /** Whether a dev server runs (verge:dev). */
  serving: boolean;
}

/** A module id as the build names it: root-relative, with `/`, without its query. */
export function rel(verge: Verge, id: string): string {
  return path.relative(verge.config.root, id.split("?")[0]!).split(path.sep).join("/");
}

/** Whether a hook runs for the browser's environment (Vite gives hooks their environment). */
export function isClient(plugin: { environment?: { config: { consumer: string } } }): boolean {
  return plugin.environment?.config.consumer === "client";
}

/** Where a client build leaves its manifest and chunks for tools and tests (never served). */
export const BUILD_REPORT = "client-build.json";
