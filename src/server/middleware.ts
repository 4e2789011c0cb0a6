// Runs the app's and the layouts' middleware around a page's answer (document, page data,
// action) or an endpoint's: outermost first, each a phase of the request's timings; a middleware
// may answer itself (a redirect in the request kind's own form, or a Response).
import { isRedirect } from "../shared/redirect";
import { isNotFound } from "../shared/not-found";
import {
  requestContext,
  type Middleware,
  type MiddlewareArgs,
  type MiddlewareKind,
} from "../shared/middleware";
import { appendHeaders } from "../shared/answers";
import type { AppContext } from "./context";
import type { ResolvedRoute } from "./load-page";
import { pageEnv } from "./d1-session";
import { redirectAnswer } from "./redirects";
import { notFoundAnswer } from "./not-found-answer";
import { failingRoute, levelOf } from "./middleware-failure";
import { requestKind } from "./request-kind";
import { timedUntil } from "./timings";

/** The middleware of `route`, outermost first: the app's, each layout's, the page's (or endpoint's) own. */
function chainOf(app: readonly Middleware[], route: ResolvedRoute | null): readonly Middleware[] {
  if (!route) return app;
  const layouts = route.layouts.flatMap((layout) => layout.module.middleware ?? []);
  const own = route.module.middleware ?? [];
  return layouts.length === 0 && own.length === 0 ? app : [...app, ...layouts, ...own];
}

/**
 * `answer` behind the middleware of `route` (null: a path no route matches, which only the
 * app's middleware sees). The request's context is made here, so loaders and actions always
 * have one; headers middleware added go on whatever answers. `shown`: how a layout's or a page's
 * middleware failure is answered, from the route rewritten to fail there (middleware-failure.ts);
 * without it, or for the app's, the failure goes on up.
 */
export async function withMiddleware(
  c: AppContext,
  route: ResolvedRoute | null,
  url: URL,
  answer: () => Promise<Response>,
  shown?: (failing: ResolvedRoute) => Promise<Response>,
): Promise<Response> {
  const context = requestContext();
  c.set("context", context);
  const app = c.get("app").middleware ?? [];
  const chain = chainOf(app, route);
  if (chain.length === 0) return answer();
  const headers = new Headers();
  c.set("answerHeaders", headers);
  const args: MiddlewareArgs = {
    // Only these kinds name a route, and so reach here (dispatch.ts).
    kind: requestKind(c).kind as MiddlewareKind,
    request: c.req.raw,
    url,
    params: route?.match.params ?? {},
    env: pageEnv(c),
    ctx: c.executionCtx,
    context,
    headers,
    route: route?.match.route.path ?? null,
  };
  const run = async (i: number): Promise<Response> => {
    const middleware = chain[i];
    if (!middleware) return answer();
    const name = middleware.name || String(i);
    let below: Promise<Response> | undefined;
    let entered!: () => void;
    const next = () => {
      // Twice would run everything below twice (an action, a write): a mistake to say, not hide.
      if (below) throw new Error(`The middleware "${name}" called next() twice: call it once`);
      entered();
      return (below = run(i + 1));
    };
    // The phase is the middleware's own time: until it calls next() or answers.
    timedUntil(c, `middleware:${name}`, new Promise<void>((done) => (entered = done)));
    let result: Awaited<ReturnType<Middleware>>;
    try {
      result = await middleware(args, next);
    } catch (thrown) {
      if (isRedirect(thrown) || isNotFound(thrown)) result = thrown;
      else {
        // Its own failure, not one from below that it let through (that one goes on up as ever).
        const own =
          !below ||
          (await below.then(
            () => true,
            (failure: unknown) => failure !== thrown,
          ));
        const level = shown && route && own && !(thrown instanceof Response) ? levelOf(app, route, i) : null;
        if (level === null) throw thrown;
        // Answered here: the middleware above sees its answer from next(), as from a loader's failure.
        return shown!(failingRoute(route!, level, thrown));
      }
    } finally {
      entered();
    }
    if (result instanceof Response) return result;
    if (isRedirect(result)) return redirectAnswer(c, result, url, { fromMiddleware: true });
    if (isNotFound(result)) return notFoundAnswer(c, url, route, route ? (levelOf(app, route, i) ?? 0) : 0);
    return below ?? next();
  };
  const response = await run(0);
  if (!hasAny(headers)) return response;
  const sent = new Response(response.body, response);
  appendHeaders(sent.headers, headers);
  return sent;
}

function hasAny(headers: Headers): boolean {
  for (const _ of headers.keys()) return true;
  return false;
}
