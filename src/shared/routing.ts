// The route table's lines, shared by the worker and the browser: patterns like "/errors/:kind".
import type { LayoutDefinition } from "./layouts";

export interface RouteDefinition<M = unknown> {
  /** Pattern: literal segments and ":name" parameters. */
  path: string;
  /** Loads the route module (a page file under src/app/pages, or an endpoint's). */
  load: () => Promise<M>;
  /** A page (rendered, with page data and actions) or an endpoint (handlers by method: endpoint.ts). */
  kind: "page" | "endpoint";
  /** The layouts around the page, outermost first (`layout()` in the table sets them). */
  layouts?: readonly LayoutDefinition[];
}

/** A route: a pattern and the module it loads (see `page` in route-module.ts, `endpoint` in endpoint.ts). */
export function route<M>(
  path: string,
  load: () => Promise<M>,
  kind: RouteDefinition["kind"] = "page",
): RouteDefinition<M> {
  return { path, load, kind };
}
