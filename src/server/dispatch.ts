// Decides once, at the top, what kind of request this is, and hands it to that kind's handler;
// whatever the handler throws is answered in that kind's format (errors.ts).
import type { Handler } from "hono";
import { MAX_ACTION_BODY_BYTES, PAGE_DATA_HEADER, STATUS } from "../shared/protocol";
import { isRedirect, redirectLocation } from "../shared/route-module";
import type { AppContext, AppEnv, ErrorFormat, RequestKind } from "./context";
import { errorResponse, HttpError } from "./errors";
import { loadPage } from "./load-page";
import { pageDataResponse, pageUrl } from "./page-data";
import { renderDocument } from "./document";
import { cachedAnswer } from "./page-cache";
import { actionResponse, isScriptRequest } from "./actions";
import { relayPath, relayResponse } from "./relay";
import { redirectResponse } from "./respond";
import { settleRefusedBody } from "./refused-body";

/** Longer request targets are refused (414) before any routing. */
export const MAX_URL_LENGTH = 8 * 1024;
const ALLOW = "GET, HEAD, POST";

/** The kind of a request, or null for a method no page, action or relay takes (405). */
export function requestKind(request: Request, path: string, env: Env): RequestKind | null {
  const method = request.method;
  if (path === relayPath(env)) return "relay";
  if (path.startsWith("/assets/")) return "asset";
  if (method === "GET" || method === "HEAD") return request.headers.has(PAGE_DATA_HEADER) ? "data" : "html";
  if (method === "POST") return "action";
  return null;
}

/** How a kind's failures are answered: only our client script sends X-Action and reads JSON. */
function errorFormatOf(kind: RequestKind, request: Request): ErrorFormat {
  switch (kind) {
    case "html":
      return "html";
    case "data":
      return "data";
    case "action":
      return isScriptRequest(request) ? "action" : "html";
    case "relay":
    case "asset":
      return "text";
  }
}

async function documentResponse(c: AppContext): Promise<Response> {
  const url = pageUrl(c.req.raw);
  return cachedAnswer(c, "html", url, async (route) => {
    const loaded = await loadPage(c, url, c.req.raw, route);
    if (isRedirect(loaded)) return redirectResponse(redirectLocation(loaded, url), STATUS.seeOther);
    return renderDocument(c, loaded);
  });
}

const bodyTooLarge = () =>
  new HttpError(STATUS.payloadTooLarge, "The body is too large (the limit is 1 MiB).");

function assetMiss(): never {
  // Existing assets never reach the worker: Workers Static Assets serves them first.
  throw new HttpError(STATUS.notFound, "Not Found");
}

const HANDLERS: Record<RequestKind, (c: AppContext) => Promise<Response>> = {
  html: documentResponse,
  data: pageDataResponse,
  action: actionResponse,
  relay: relayResponse,
  asset: async () => assetMiss(),
};

export const dispatch: Handler<AppEnv> = async function dispatch(c) {
  const request = c.req.raw;
  const kind = requestKind(request, c.req.path, c.env);
  const log = c.get("log");
  log.kind = kind ?? "html";
  const format = kind === null ? "html" : errorFormatOf(kind, request);
  c.set("errorFormat", format);
  try {
    if (request.url.length > MAX_URL_LENGTH) throw new HttpError(414, "URI Too Long");
    if (kind === null) {
      const refusal = new HttpError(STATUS.methodNotAllowed, "Method Not Allowed", {
        headers: { Allow: ALLOW },
      });
      throw await settleRefusedBody(request, MAX_ACTION_BODY_BYTES, refusal, bodyTooLarge);
    }
    return await HANDLERS[kind](c);
  } catch (error) {
    // Caught here rather than by Hono's onError, which sees only Error instances: a string,
    // null or a Response thrown by page code gets the same fallback, digest and log line.
    return errorResponse(c, error, format);
  }
};
