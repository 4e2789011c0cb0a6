// What a request is, decided once from its method, path and headers, before any handler runs:
// the handler, the format of its failures, its D1 session, its bookmark and its log line all
// read this one decision.
import type { MiddlewareHandler } from "hono";
import { ACTION_HEADER, PAGE_DATA_HEADER, ROUTES_PATH } from "../shared/protocol";
import { matchRoute, type RouteMatch } from "../shared/match-route";
import type { RouteModule, RouteTable } from "../shared/route-module";
import type { AppContext, AppEnv, ErrorFormat, KindOfRequest, RequestKind } from "./context";
import { relayPath } from "./reporter-config";
import { pathOf } from "./logger";

/** Each table's endpoint lines, picked once: most requests walk only these, and none when there are none. */
const ENDPOINTS = new WeakMap<RouteTable, RouteTable>();

/**
 * The endpoint `path` names, or null. Only when an endpoint's pattern matches is the whole table
 * walked, since the first matching line wins: a page above it takes the path.
 */
function endpointMatch(routes: RouteTable, path: string): RouteMatch<RouteModule> | null {
  let endpoints = ENDPOINTS.get(routes);
  if (!endpoints) ENDPOINTS.set(routes, (endpoints = routes.filter((route) => route.kind === "endpoint")));
  if (endpoints.length === 0 || !matchRoute(endpoints, path)) return null;
  const match = matchRoute(routes, path);
  return match?.route.kind === "endpoint" ? match : null;
}

function kindOf(request: Request, path: string, env: Env, endpoint: RouteMatch | null): RequestKind | null {
  const method = request.method;
  if (path === relayPath(env)) return "relay";
  // Any method: its guard answers 405 to all but GET and HEAD.
  if (path === ROUTES_PATH) return "discovery";
  if (path.startsWith("/assets/")) return "asset";
  // Any method: the endpoint's own handlers decide which it takes (405 with its Allow).
  if (endpoint) return "endpoint";
  if (method === "GET" || method === "HEAD") return request.headers.has(PAGE_DATA_HEADER) ? "data" : "html";
  if (method === "POST") return "action";
  return null;
}

const FORMATS: Record<RequestKind, ErrorFormat> = {
  html: "html",
  data: "data",
  action: "html",
  endpoint: "json",
  discovery: "json",
  relay: "text",
  asset: "text",
};

/** Decides what `request` is; `routes` tells which paths are endpoints. */
export function classifyRequest(
  request: Request,
  path: string,
  env: Env,
  routes: RouteTable = [],
): KindOfRequest {
  const endpoint = endpointMatch(routes, path);
  const kind = kindOf(request, path, env, endpoint);
  const script = kind === "action" && request.headers.has(ACTION_HEADER);
  const errorFormat = kind === null ? "html" : script ? "action" : FORMATS[kind];
  return kind === "endpoint"
    ? { kind, script, errorFormat, endpoint: endpoint! }
    : { kind, script, errorFormat };
}

/** Decides the request's kind first, for every later step to read (requestKind). */
export function decideRequestKind(): MiddlewareHandler<AppEnv> {
  return async function decideRequestKind(c, next) {
    // The path as sent, not Hono's decoded one: `/%6Donitoring` is not the relay's path.
    c.set("kind", classifyRequest(c.req.raw, pathOf(c.req.url), c.env, c.get("app").routes));
    await next();
  };
}

/** The request's kind, as decideRequestKind decided it. */
export function requestKind(c: AppContext): KindOfRequest {
  return c.get("kind");
}
