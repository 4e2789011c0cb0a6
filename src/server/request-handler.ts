// What each kind of request declares for the dispatcher (dispatch.ts): its target, its guards,
// its body limit and its answer. The dispatcher runs these steps in one order for every kind.
import { ACTION_HEADER, PAGE_DATA_PARAM } from "../shared/protocol";
import type { AppContext } from "./context";
import type { ResolvedRoute } from "./load-page";
import { cookiesAfter } from "./cookie-jar";

/** One kind's handler; `Admitted` is what its guards found out for its answer (an action's body type). */
export interface RequestHandler<Admitted = void> {
  /** The URL the request is for, as matching, middleware and loaders see it. */
  target(request: Request): URL;
  /** Whether the request names a route: then it is resolved, and middleware runs around the answer. */
  routed: boolean;
  /** The largest body taken: a refused one is read to its end within it and dropped, else cancelled. */
  limit: number;
  /** The refusal of a body over `limit`. */
  tooLarge(): Error;
  /** The checks made before the body is read or any product code runs: each throws its refusal. */
  guards?(c: AppContext, url: URL, route: ResolvedRoute | null): Admitted | Promise<Admitted>;
  /**
   * Whether a layout's or a page's middleware failure is shown at its level, by the answer made
   * from the route failing there (documents); else it is answered in the kind's own format.
   */
  showsFailures?: boolean;
  /** The answer, behind the route's middleware. */
  answer(c: AppContext, url: URL, route: ResolvedRoute | null, admitted: Admitted): Promise<Response>;
}

/** The page URL without the cache-busting marker parameter, as matching and loaders see it. */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  url.searchParams.delete(PAGE_DATA_PARAM);
  return url;
}

/** The URL as sent (endpoints, the relay): nothing in it is verge's own. */
export const sentUrl = (request: Request): URL => new URL(request.url);

/**
 * The page at `url` as the browser's GET would load it once it has this answer (an action's, or
 * a middleware's notFound()): no POST body or form headers, and the cookies as the middleware's
 * and the action's `Set-Cookie` (`added`) leave them. A GET of the page itself, setting none, is
 * the request as sent.
 */
export function pageRequest(c: AppContext, url: URL, added?: HeadersInit): Request {
  const request = c.req.raw;
  const set = [...(c.get("answerHeaders")?.getSetCookie() ?? []), ...new Headers(added).getSetCookie()];
  if (request.method === "GET" && url.href === request.url && set.length === 0) return request;
  const headers = new Headers(request.headers);
  for (const name of ["Content-Type", "Content-Length", ACTION_HEADER]) headers.delete(name);
  const cookie = cookiesAfter(headers.get("Cookie"), set, url);
  if (cookie === null) headers.delete("Cookie");
  else headers.set("Cookie", cookie);
  return new Request(url, { method: "GET", headers });
}
