// A redirect from a loader, an action or a middleware, in the form its request's kind takes: an
// HTTP redirect for documents and plain form posts, the page-data protocol's JSON for client
// navigations and JavaScript actions (the client follows it), with the redirect's own headers.
import { type ActionRedirect, type RedirectPayload, STATUS } from "../shared/protocol";
import { redirectLocation, type Redirect } from "../shared/redirect";
import { appendHeaders } from "../shared/answers";
import type { AppContext } from "./context";
import { answerHeaders } from "./headers";
import { requestKind } from "./request-kind";
import { jsonResponse, redirectResponse } from "./respond";
import { uncacheable } from "./page-cache";

/** Found, for a document a middleware turns away (a sign-in wall); See Other for everything else. */
const FOUND = 302;

export function redirectAnswer(
  c: AppContext,
  to: Redirect,
  page: URL,
  { fromMiddleware = false }: { fromMiddleware?: boolean } = {},
): Response {
  const location = redirectLocation(to, page);
  const { kind, script } = requestKind(c);
  let response: Response;
  if (kind === "data") {
    // A 200 like a page's data, but a redirect: not stored, as a document's 303 is not.
    response = uncacheable(
      jsonResponse({ redirect: location } satisfies RedirectPayload, STATUS.ok, answerHeaders("data")),
    );
  } else if (script) {
    const body: ActionRedirect = { ok: true, redirect: location };
    response = jsonResponse(body, STATUS.ok, answerHeaders("action"));
  } else {
    const get = c.req.method === "GET" || c.req.method === "HEAD";
    response = redirectResponse(location, fromMiddleware && get ? FOUND : STATUS.seeOther);
  }
  appendHeaders(response.headers, to.headers);
  return response;
}
