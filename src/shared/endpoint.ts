// Endpoints: a route-table line whose module answers with a Response per method (robots.txt, a
// JSON API, a webhook), beside pages. What such a module exports, and how Routes<> checks it.
import type { MiddlewareHandler } from "hono";
import { route, type RouteDefinition } from "./routing";
import type { CachePolicy, LoaderArgs, RouteModule } from "./route-module";
import type { Middleware } from "./middleware";

/** The methods an endpoint module may export a handler for; HEAD is GET's, OPTIONS the runtime's. */
export const ENDPOINT_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

/**
 * What a handler receives, as a loader does; `P` is its pattern (`EndpointArgs<"/api/users/:id">`),
 * for typed params. `context` holds what the middleware above set (none for a cached GET).
 */
export type EndpointArgs<P extends string = string> = LoaderArgs<P>;

/** One method's handler: a Response, whatever it holds (text, JSON, a redirect, a stream). */
export type EndpointHandler<P extends string = string> = (
  args: EndpointArgs<P>,
) => Response | Promise<Response>;

/** What an endpoint module exports (each handler checked against its pattern by Routes<>). */
export type EndpointModule<P extends string = string> = {
  [M in EndpointMethod]?: EndpointHandler<P>;
} & {
  /**
   * True: unsafe methods (POST, PUT, PATCH, DELETE) are taken from other sites too. For a webhook,
   * which must then verify its sender itself (a signature); everything else stays same-site only.
   */
  crossSite?: boolean;
  /** GET only: this location's edge cache keeps the answers, by the rules of a page's `cache`. */
  cache?: CachePolicy;
  /**
   * verge middleware, as a page's: run after the app's and its layouts', before `use` and the
   * handler (`kind` is "endpoint": a guard answers 401 where a page's would redirect).
   */
  middleware?: readonly Middleware[];
  /** Hono middleware (hono/cors, hono/basic-auth, ...), run in order before the handler, on every request. */
  use?: readonly MiddlewareHandler[];
};

declare const endpointModule: unique symbol;

/** An endpoint's table line: its pattern as a literal type, its module's type, `kind` "endpoint". */
export type EndpointRoute<P extends string, M = unknown> = RouteDefinition<RouteModule> & {
  path: P;
  kind: "endpoint";
  readonly [endpointModule]?: M;
};

/** What an endpoint module must be to serve pattern `P` (Routes<> checks it). */
export type CheckedEndpoint<P extends string> = EndpointModule<P>;

/**
 * One line of the route table: `endpoint("/robots.txt", () => import("./endpoints/robots"))`.
 * `Routes` checks the module's handlers against the pattern.
 */
export function endpoint<P extends string, M>(path: P, load: () => Promise<M>): EndpointRoute<P, M> {
  // The runtime holds every module as a RouteModule; the kind says which it really is.
  return route(path, load as unknown as () => Promise<RouteModule>, "endpoint") as EndpointRoute<P, M>;
}
