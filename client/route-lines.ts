// The route table's lines as the browser knows them: the document's own page's, then each the
// router discovers (client/discovery.ts). The first load carries no table; a line names its
// chunks by URL, and its `load()` imports them.
import type { ChunkRef, RouteLine } from "../src/shared/protocol";
import type { RouteModule } from "../src/shared/route-module";
import type { LayoutModule } from "../src/shared/layouts";
import type { RouteDefinition } from "../src/shared/routing";

/** Whether the page links `href` already (the server's preloads and stylesheets, or an earlier load's). */
const linked = (href: string) => document.querySelector(`link[href="${CSS.escape(href)}"]`) !== null;

/** Links a stylesheet unless the page has it, and settles once it applies (or fails to load). */
function stylesheet(href: string, nonce?: string): Promise<void> | undefined {
  if (linked(href)) return;
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href, nonce });
  document.head.appendChild(link);
  return new Promise((resolve, reject) => {
    link.onload = () => resolve();
    link.onerror = reject;
  });
}

/**
 * Imports a chunk by its URL, as Vite's own `import()` of a page would: the chunks it imports
 * preloaded beside it (with the page's CSP nonce), its stylesheets applied first, so the page
 * never shows unstyled. A chunk that does not load rejects: the router then loads the page in full.
 */
function importChunk<M>(chunk: ChunkRef | undefined): Promise<M> {
  if (!chunk) return Promise.reject(new Error("This build has no chunk for the route"));
  const nonce = document.querySelector<HTMLMetaElement>("meta[property=csp-nonce]")?.nonce;
  for (const href of chunk.imports ?? []) {
    if (!linked(href))
      document.head.appendChild(
        Object.assign(document.createElement("link"), { rel: "modulepreload", href, nonce }),
      );
  }
  return Promise.all((chunk.css ?? []).map((href) => stylesheet(href, nonce))).then(
    () => import(/* @vite-ignore */ chunk.file),
  );
}

/** The route table's line `line` stands for, its modules imported from their chunks. */
export function routeOf(line: RouteLine): RouteDefinition<RouteModule> {
  return {
    path: line.path,
    kind: line.kind,
    load: () => importChunk<RouteModule>(line.module),
    layouts: line.layouts?.map(({ id, params, module }) => ({
      id,
      params,
      load: () => importChunk<LayoutModule>(module),
    })),
  };
}
