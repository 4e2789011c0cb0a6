// Branches once, at the top, on the kind of request, and hands each kind to its own function.
import type { Handler } from "hono";
import { PAGE_DATA_HEADER, STATUS } from "./protocol";
import { HttpError } from "./errors";
import { loadPage } from "./page-load";
import { pageDataResponse, pageUrl } from "./page-data";
import { renderDocument } from "./render";
import { actionResponse } from "./actions";
import { relayResponse, relayPath } from "./relay";
import { isRedirect } from "./route-module";
import { redirectResponse } from "./http";
import type { AppContext, AppEnv, RequestKind } from "./context";

/** Longer request targets are refused (414) before any routing. */
export const MAX_URL_LENGTH = 8 * 1024;
const ALLOW = "GET, HEAD, POST";

export function requestKind(c: AppContext): RequestKind | null {
  const method = c.req.method;
  const path = c.req.path;
  if (path === relayPath(c.env)) return "relay";
  if (path.startsWith("/assets/")) return "asset";
  if (method === "GET" || method === "HEAD") return c.req.header(PAGE_DATA_HEADER) ? "data" : "html";
  if (method === "POST") return "action";
  return null;
}

async function documentResponse(c: AppContext): Promise<Response> {
  const url = pageUrl(c.req.raw);
  const loaded = await loadPage(c, url, c.req.raw);
  if (isRedirect(loaded)) return redirectResponse(c, loaded.location, STATUS.seeOther);
  return renderDocument(c, loaded);
}

export const handleRequest: Handler<AppEnv> = async function handleRequest(c) {
  if (c.req.url.length > MAX_URL_LENGTH) {
    throw new HttpError(414, "URI Too Long");
  }
  const kind = requestKind(c);
  if (kind === null) {
    c.get("log").kind = "html";
    throw new HttpError(STATUS.methodNotAllowed, "Method Not Allowed", { headers: { Allow: ALLOW } });
  }
  c.get("log").kind = kind;
  switch (kind) {
    case "relay":
      return relayResponse(c);
    case "asset":
      // Existing assets never reach the worker: Workers Static Assets serves them first.
      throw new HttpError(STATUS.notFound, "Not Found");
    case "data":
      return pageDataResponse(c);
    case "action":
      return actionResponse(c);
    case "html":
      return documentResponse(c);
  }
};
