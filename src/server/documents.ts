// Document requests: a GET of a page's URL, answered with its HTML (from the edge cache when the
// page opts in; a page with a per-visitor loader as its stored shell and its resumed holes).
import { MAX_ACTION_BODY_BYTES } from "../shared/protocol";
import { isRedirect } from "../shared/redirect";
import { bodyTooLarge } from "./guards";
import { loadPage } from "./load-page";
import { shellAnswer } from "./shell";
import { policyOf } from "./cache-policy";
import { renderDocument } from "./document";
import { cachedAnswer } from "./page-cache";
import { redirectAnswer } from "./redirects";
import { pageUrl, type RequestHandler } from "./request-handler";

export const documentHandler: RequestHandler = {
  target: pageUrl,
  routed: true,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: bodyTooLarge,
  showsFailures: true,
  async answer(c, url, route) {
    // A cached page with holes: its shell is stored, the holes resumed per request. Without `cache`
    // there is nothing to store, and the page renders whole, its visitor data streamed as deferred.
    if (route?.module.visitorLoader && policyOf(route.module)) return shellAnswer(c, url, route);
    return cachedAnswer(c, "html", url, route, async (route, nonce) => {
      const loaded = await loadPage(c, url, c.req.raw, route);
      if (isRedirect(loaded)) return redirectAnswer(c, loaded, url);
      return renderDocument(c, loaded, undefined, nonce);
    });
  },
};
