// notFound() from a middleware or an action, answered in its request's kind: the app's not-found
// view inside the page's layouts, as a document (404), page data (404 JSON) or an action's JSON.
import { ACTION_HEADER, type ActionNotFound, STATUS } from "../shared/protocol";
import type { Middleware } from "../shared/middleware";
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

/**
 * The layouts of `route` the not-found view shows inside: those above the level that lists
 * `middleware` (the app's: none; a layout's: those above it; the page's own: all of them).
 */
function levelOf(c: AppContext, route: ResolvedRoute, middleware: Middleware): number {
  if (c.get("app").middleware?.includes(middleware)) return 0;
  const at = route.layouts.findIndex((layout) => layout.module.middleware?.includes(middleware));
  return at < 0 ? route.layouts.length : at;
}

/** The page as a GET of `url` would load it: the loaders see no POST body or marker header. */
function pageRequest(c: AppContext, url: URL): Request {
  const request = c.req.raw;
  if (request.method === "GET" && url.href === request.url) return request;
  const headers = new Headers(request.headers);
  for (const name of ["Content-Type", "Content-Length", ACTION_HEADER]) headers.delete(name);
  return new Request(url, { method: "GET", headers });
}

/**
 * The answer when `by` (a middleware, or the page's action) said notFound() for `url`: loaders
 * below that level do not run; those above it do, for the layouts around the view.
 */
export async function notFoundAnswer(
  c: AppContext,
  url: URL,
  route: ResolvedRoute | null,
  by: Middleware | "action",
): Promise<Response> {
  const { kind, script } = requestKind(c);
  // An endpoint has no page to show the view in: its 404 is JSON, as its other refusals.
  if (kind === "endpoint") throw new HttpError(STATUS.notFound, "Not Found");
  const request = () => pageRequest(c, url);
  const loaded = route
    ? await loadNotFound(
        c,
        url,
        request,
        route,
        by === "action" ? route.layouts.length : levelOf(c, route, by),
      )
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
