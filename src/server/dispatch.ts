// Hands a request to its kind's handler (the kind was decided before, in request-kind.ts);
// whatever the handler throws is answered in that kind's format (errors.ts).
import type { Handler } from "hono";
import { MAX_ACTION_BODY_BYTES, STATUS } from "../shared/protocol";
import { isRedirect } from "../shared/redirect";
import type { AppContext, AppEnv, RequestKind } from "./context";
import { errorResponse, HttpError } from "./errors";
import { loadPage, resolveRoute } from "./load-page";
import { shellAnswer } from "./shell";
import { policyOf } from "./cache-policy";
import { pageDataResponse, pageUrl } from "./page-data";
import { renderDocument } from "./document";
import { cachedAnswer } from "./page-cache";
import { actionResponse } from "./actions";
import { endpointResponse } from "./endpoints";
import { relayResponse } from "./relay";
import { requestKind } from "./request-kind";
import { redirectAnswer } from "./redirects";
import { withMiddleware } from "./middleware";
import { settleRefusedBody } from "./refused-body";

/** Longer request targets are refused (414) before any routing. */
export const MAX_URL_LENGTH = 8 * 1024;
const ALLOW = "GET, HEAD, POST";

async function documentResponse(c: AppContext): Promise<Response> {
  const url = pageUrl(c.req.raw);
  const route = await resolveRoute(c, url);
  return withMiddleware(c, route, url, () => {
    // A cached page with holes: its shell is stored, the holes resumed per request. Without `cache`
    // there is nothing to store, and the page renders whole, its visitor data streamed as deferred.
    if (route?.module.visitorLoader && policyOf(route.module)) return shellAnswer(c, url, route);
    return cachedAnswer(c, "html", url, route, async (route, nonce) => {
      const loaded = await loadPage(c, url, c.req.raw, route);
      if (isRedirect(loaded)) return redirectAnswer(c, loaded, url);
      return renderDocument(c, loaded, undefined, nonce);
    });
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
  endpoint: endpointResponse,
  relay: relayResponse,
  asset: async () => assetMiss(),
};

export const dispatch: Handler<AppEnv> = async function dispatch(c) {
  const request = c.req.raw;
  const { kind, errorFormat: format } = requestKind(c);
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
