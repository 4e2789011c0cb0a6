// What a request is, decided once from its method, path and headers, before any handler runs:
// the handler, the format of its failures, its D1 session, its bookmark and its log line all
// read this one decision.
import type { MiddlewareHandler } from "hono";
import { ACTION_HEADER, PAGE_DATA_HEADER } from "../shared/protocol";
import type { AppContext, AppEnv, ErrorFormat, KindOfRequest, RequestKind } from "./context";
import { relayPath } from "./relay";
import { pathOf } from "./logger";

function kindOf(request: Request, path: string, env: Env): RequestKind | null {
  const method = request.method;
  if (path === relayPath(env)) return "relay";
  if (path.startsWith("/assets/")) return "asset";
  if (method === "GET" || method === "HEAD") return request.headers.has(PAGE_DATA_HEADER) ? "data" : "html";
  if (method === "POST") return "action";
  return null;
}

const FORMATS: Record<RequestKind, ErrorFormat> = {
  html: "html",
  data: "data",
  action: "html",
  relay: "text",
  asset: "text",
};

/** Decides what `request` is. */
export function classifyRequest(request: Request, path: string, env: Env): KindOfRequest {
  const kind = kindOf(request, path, env);
  const script = kind === "action" && request.headers.has(ACTION_HEADER);
  const errorFormat = kind === null ? "html" : script ? "action" : FORMATS[kind];
  return { kind, script, errorFormat };
}

/** Decides the request's kind first, for every later step to read (requestKind). */
export function decideRequestKind(): MiddlewareHandler<AppEnv> {
  return async function decideRequestKind(c, next) {
    // The path as sent, not Hono's decoded one: `/%6Donitoring` is not the relay's path.
    c.set("kind", classifyRequest(c.req.raw, pathOf(c.req.url), c.env));
    await next();
  };
}

/** The request's kind, as decideRequestKind decided it. */
export function requestKind(c: AppContext): KindOfRequest {
  return c.get("kind");
}
