// The client build's manifest: the build id and which files each route needs in the browser.
// The worker entry imports the product's dist/manifest.json and hands it to createApp.

export interface ClientManifest {
  build: string;
  entry: string;
  entryImports: string[];
  css: string | null;
  routes: Record<string, { module: string; imports: string[] }>;
}

/** Module chunks to preload, per manifest and route: the manifest is fixed for the isolate's life. */
const preloads = new WeakMap<ClientManifest, Map<string | null, string[]>>();

/** Module chunks to preload for a route, beyond the entry itself. */
export function modulePreloads(manifest: ClientManifest, route: string | null): string[] {
  let byRoute = preloads.get(manifest);
  if (!byRoute) preloads.set(manifest, (byRoute = new Map()));
  let list = byRoute.get(route);
  if (!list) {
    const chunk = route === null ? undefined : manifest.routes[route];
    list = [...new Set([...manifest.entryImports, ...(chunk ? [chunk.module, ...chunk.imports] : [])])];
    byRoute.set(route, list);
  }
  return list;
}
