// notFound() from a middleware or an action, answered in its request's kind: the app's not-found
// view inside the page's layouts, as a document (404), page data (404 JSON) or an action's JSON.
import { type ActionNotFound, STATUS } from "../shared/protocol";
import { isRedirect } from "../shared/redirect";
import { appendHeaders } from "../shared/answers";
import type { AppContext } from "./context";
import { loadNotFound, loadPage, type ResolvedRoute } from "./load-page";
import { renderDocument } from "./document";
import { HttpError } from "./errors";
import { answerHeaders } from "./headers";
import { jsonResponse } from "./respond";
import { redirectAnswer } from "./redirects";
import { requestKind } from "./request-kind";
import { pageRequest } from "./request-handler";

/**
 * The answer when a middleware or the page's action said notFound() for `url`. `level`: how many
 * of the route's layouts the view shows inside (those above the level that listed the middleware;
 * all of them for the page's own middleware or action): their loaders run, none below does.
 */
export async function notFoundAnswer(
  c: AppContext,
  url: URL,
  route: ResolvedRoute | null,
  level: number,
): Promise<Response> {
  const { kind, script } = requestKind(c);
  // An endpoint has no page to show the view in: its 404 is JSON, as its other refusals.
  if (kind === "endpoint") throw new HttpError(STATUS.notFound, "Not Found");
  const request = () => pageRequest(c, url);
  const loaded = route
    ? await loadNotFound(c, url, request, route, level)
    : await loadPage(c, url, request, null);
  if (isRedirect(loaded)) return redirectAnswer(c, loaded, url);
  const { page, module, headers } = loaded;
  let response: Response;
  if (kind === "data") {
    response = jsonResponse(page, page.status, answerHeaders("data", module, page.status));
  } else if (script) {
    const body: ActionNotFound = { ok: false, notFound: true, page };
    response = jsonResponse(body, page.status, answerHeaders("action"));
  } else {
    return renderDocument(c, loaded);
  }
  appendHeaders(response.headers, headers);
  return response;
}
