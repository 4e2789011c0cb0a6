// A route's line as the browser knows it: its pattern, kind, and the chunks of its page and layouts.
// The document embeds its own page's line; route discovery answers the others (route-discovery.ts).
import type { ChunkRef, RouteLine } from "../shared/protocol";
import type { RouteModule } from "../shared/route-module";
import type { RouteDefinition } from "../shared/routing";
import { moduleId, type ClientManifest } from "./manifest";

/** A module's chunk as the browser imports it: the built chunk, or under `vite dev` its source. */
function chunkOf(manifest: ClientManifest, module: object | null): ChunkRef | undefined {
  const id = moduleId(module);
  if (id === undefined) return undefined;
  return manifest.mode === "development" ? { file: id } : manifest.modules[id];
}

/**
 * The line of `route` for the browser, from its modules once loaded (their ids name their chunks).
 * An endpoint's has no module: the browser loads it in full.
 */
export function routeLine(
  manifest: ClientManifest,
  route: RouteDefinition<RouteModule>,
  module: object | null,
  layouts: readonly (object | null)[],
): RouteLine {
  if (route.kind === "endpoint") return { path: route.path, kind: "endpoint" };
  const line: RouteLine = { path: route.path, kind: "page", module: chunkOf(manifest, module) };
  const chain = route.layouts ?? [];
  if (chain.length > 0) {
    line.layouts = chain.map((layout, i) => ({
      id: layout.id,
      params: layout.params,
      module: chunkOf(manifest, layouts[i] ?? null),
    }));
  }
  return line;
}
