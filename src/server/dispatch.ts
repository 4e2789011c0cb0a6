// The one pipeline every request goes through, whatever its kind (decided before, in
// request-kind.ts): its target, its route resolved once, its kind's guards with the refused body
// settled, the route's middleware, then its kind's answer. Whatever is thrown is answered in that
// kind's format (errors.ts).
import type { Handler } from "hono";
import { MAX_ACTION_BODY_BYTES, STATUS } from "../shared/protocol";
import type { AppContext, AppEnv, RequestKind } from "./context";
import { errorResponse, HttpError } from "./errors";
import { bodyTooLarge } from "./guards";
import { loadRoute, resolveRoute, type ResolvedRoute } from "./load-page";
import { requestKind } from "./request-kind";
import { withMiddleware } from "./middleware";
import { settleRefusedBody } from "./refused-body";
import { sentUrl, type RequestHandler } from "./request-handler";
import { documentHandler } from "./documents";
import { pageDataHandler } from "./page-data";
import { actionHandler } from "./actions";
import { endpointHandler } from "./endpoints";
import { relayHandler } from "./relay";
import { discoveryHandler } from "./route-discovery";

/** Longer request targets are refused (414) before any routing. */
export const MAX_URL_LENGTH = 8 * 1024;

/** A method no page, action, endpoint or relay takes. */
const refusedMethod: RequestHandler = {
  target: sentUrl,
  routed: false,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: bodyTooLarge,
  guards() {
    throw new HttpError(STATUS.methodNotAllowed, "Method Not Allowed", {
      headers: { Allow: "GET, HEAD, POST" },
    });
  },
  answer: () => Promise.reject(new Error("unreachable: refused by its guard")),
};

/** A path under /assets/ that reached the worker. */
const assetMiss: RequestHandler = {
  target: sentUrl,
  routed: false,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: bodyTooLarge,
  // Existing assets never reach the worker: Workers Static Assets serves them first.
  answer: () => Promise.reject(new HttpError(STATUS.notFound, "Not Found")),
};

// unknown: each handler's guards and answer agree on what they pass (RequestHandler's methods).
const HANDLERS: Record<RequestKind, RequestHandler<unknown>> = {
  html: documentHandler,
  data: pageDataHandler,
  action: actionHandler,
  endpoint: endpointHandler,
  discovery: discoveryHandler,
  relay: relayHandler,
  asset: assetMiss,
};

async function handle(c: AppContext, handler: RequestHandler<unknown>): Promise<Response> {
  const request = c.req.raw;
  const url = handler.target(request);
  // An endpoint was matched to decide the kind: its modules are loaded, not matched again.
  const endpoint = requestKind(c).endpoint;
  const route = !handler.routed ? null : endpoint ? await loadRoute(c, endpoint) : await resolveRoute(c, url);
  let admitted: unknown;
  try {
    admitted = await handler.guards?.(c, url, route);
  } catch (refusal) {
    throw await settleRefusedBody(request, handler.limit, refusal, handler.tooLarge);
  }
  const answer = () => handler.answer(c, url, route, admitted);
  if (!handler.routed) return answer();
  const shown = handler.showsFailures
    ? (failing: ResolvedRoute) => handler.answer(c, url, failing, admitted)
    : undefined;
  return withMiddleware(c, route, url, answer, shown);
}

export const dispatch: Handler<AppEnv> = async function dispatch(c) {
  const { kind, errorFormat: format } = requestKind(c);
  try {
    if (c.req.raw.url.length > MAX_URL_LENGTH) throw new HttpError(414, "URI Too Long");
    return await handle(c, kind === null ? refusedMethod : HANDLERS[kind]);
  } catch (error) {
    // Caught here rather than by Hono's onError, which sees only Error instances: a string,
    // null or a Response thrown by page code gets the same fallback, digest and log line.
    return errorResponse(c, error, format);
  }
};
