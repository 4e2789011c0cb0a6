// The client build's manifest: the build id and which files each route needs in the browser.
import manifest from "../dist/manifest.json";

export interface ClientManifest {
  build: string;
  entry: string;
  entryImports: string[];
  css: string | null;
  routes: Record<string, { module: string; imports: string[] }>;
}

export const clientManifest: ClientManifest = manifest;

/** Module chunks to preload for a route, beyond the entry itself. Computed once per route. */
const preloads = new Map<string | null, string[]>();

export function modulePreloads(route: string | null, source: ClientManifest = clientManifest): string[] {
  let list = preloads.get(route);
  if (!list) {
    const chunk = route === null ? undefined : source.routes[route];
    list = [...new Set([...source.entryImports, ...(chunk ? [chunk.module, ...chunk.imports] : [])])];
    preloads.set(route, list);
  }
  return list;
}
