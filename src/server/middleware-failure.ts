// Where a middleware's failure shows on a document: at the level that listed it, as that level's
// loader failing would (load-page.ts): a layout's, by the error view above it; a page's, by the
// innermost layout's. The route is rewritten so, and the document made from it as any other.
import type { Middleware } from "../shared/middleware";
import type { RouteModule } from "../shared/route-module";
import type { LayoutModule } from "../shared/layouts";
import type { ResolvedRoute } from "./load-page";

/**
 * The level of the `i`th middleware of `route`'s chain (the app's first): a layout's index, the
 * layouts' count for the page's own, or null for the app's (and a route without layouts, whose
 * loader failure has no error view to go to either).
 */
export function levelOf(app: readonly Middleware[], route: ResolvedRoute, i: number): number | null {
  if (i < app.length || route.layouts.length === 0) return null;
  let end = app.length;
  for (const [level, layout] of route.layouts.entries()) {
    end += layout.module.middleware?.length ?? 0;
    if (i < end) return level;
  }
  return route.layouts.length;
}

/**
 * `route` as if the loader at `level` threw `error`: the layouts above load as ever, nothing
 * below loads, and nothing of it is cached (no `cache`, no per-visitor shell).
 */
export function failingRoute(route: ResolvedRoute, level: number, error: unknown): ResolvedRoute {
  const fail = () => {
    throw error;
  };
  const layouts = route.layouts.map((layout, i) => {
    if (i < level) return layout;
    const module: LayoutModule = { ...layout.module, loader: i === level ? fail : undefined };
    return { ...layout, module };
  });
  const own = level === route.layouts.length ? fail : undefined;
  const module: RouteModule = { ...route.module, loader: own, visitorLoader: undefined, cache: undefined };
  return { ...route, module, layouts };
}
