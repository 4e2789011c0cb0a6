// The one loader call path: HTML documents, page data and action revalidation all load a page here.
import { matchRoute, type RouteMatch } from "../shared/routing";
import {
  isRedirect,
  pageView,
  titleOf,
  type LoaderArgs,
  type Redirect,
  type RouteModule,
} from "../shared/route-module";
import { STATUS, type PageData, type Params } from "../shared/protocol";
import type { AppContext } from "./context";
import { pageEnv } from "./d1-session";
import { cachedPageRequest, cachedUrl, policyOf } from "./cache-policy";
import { headTags } from "./head";
import { timed } from "./timings";

export interface LoadedPage {
  page: PageData;
  module: RouteModule | null;
  /** The per-visitor loader's data, pending (startVisitor); pages without one: undefined. */
  visitor?: Promise<unknown>;
}

export const NOT_FOUND_TITLE = "Page not found";

/** The route a URL names, with its module loaded. */
export interface ResolvedRoute {
  match: RouteMatch<RouteModule>;
  module: RouteModule;
}

/** The route `url` names and its module, or null (not found); the log line names the route. */
export function resolveRoute(c: AppContext, url: URL): Promise<ResolvedRoute | null> {
  return timed(c, "match", async () => {
    const match = matchRoute(c.get("app").routes, url.pathname);
    if (!match) return null;
    c.get("log").route = match.route.path;
    return { match, module: await match.route.load() };
  });
}

/**
 * Runs the loader of `route` (resolveRoute's answer for `url`; null: the not-found page). A
 * loader that returns or throws a redirect yields the Redirect; other throws propagate.
 * `request` may be a function: a Request derived for the page (page data without its marker,
 * an action's reload) is then built only if the loader reads `request`; most read `url` only.
 */
export async function loadPage(
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
  route: ResolvedRoute | null,
  /** The page's per-visitor loader, started (by default here, with `request` as sent). */
  visitor = startVisitor(c, url, request, route),
): Promise<LoadedPage | Redirect> {
  const { manifest } = c.get("app");
  if (!route) {
    const page: PageData = {
      route: null,
      params: {},
      data: null,
      title: NOT_FOUND_TITLE,
      head: headTags(c, url, null, null, NOT_FOUND_TITLE),
      build: manifest.build,
      status: STATUS.notFound,
    };
    return { page, module: null };
  }
  const { match, module } = route;
  const policy = policyOf(module);
  if (policy) {
    // A cached page is the same for every visitor: it cannot read who they are, or what else
    // their URL says (cache-policy.ts).
    const original = request;
    url = cachedUrl(url, policy);
    request = () => cachedPageRequest(typeof original === "function" ? original() : original, url);
  }
  let data: unknown = null;
  if (module.loader) {
    try {
      data = await timed(c, "loader", () => module.loader!(loaderArgs(c, url, match.params, request)));
    } catch (thrown) {
      if (isRedirect(thrown)) return thrown;
      throw thrown;
    }
    if (isRedirect(data)) return data;
    // What the page renders with, on the server as after hydration: the data through JSON.
    data = pageView(data);
  }
  const title = titleOf(module, data);
  const page: PageData = {
    route: match.route.path,
    params: match.params,
    data,
    title,
    head: headTags(c, url, module, data, title),
    build: manifest.build,
    status: STATUS.ok,
  };
  return { page, module, visitor };
}

function loaderArgs(c: AppContext, url: URL, params: Params, request: Request | (() => Request)): LoaderArgs {
  let built = typeof request === "function" ? undefined : request;
  return {
    get request() {
      return (built ??= (request as () => Request)());
    },
    url,
    params,
    env: pageEnv(c),
    ctx: c.executionCtx,
  };
}

/**
 * Starts the page's per-visitor loader, if it has one: it sees `request` whole, cookies and
 * headers included, whether or not the page is cached. Its data goes through JSON as a loader's
 * does; a redirect is not its to give (the page's shell may already be on its way).
 */
export function startVisitor(
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
  route: ResolvedRoute | null,
): Promise<unknown> | undefined {
  const load = route?.module.visitorLoader;
  if (!load) return undefined;
  const started = timed(c, "visitor", async () => {
    const data = await load(loaderArgs(c, url, route.match.params, request));
    if (isRedirect(data)) {
      throw new TypeError(
        `visitorLoader of "${route.match.route.path}" returned a redirect: only loader may`,
      );
    }
    return pageView(data);
  });
  // Its failure is the hole's to show (settled with a digest where it is read), even if the
  // shared loader fails first and nothing reads it.
  started.catch(() => {});
  return started;
}
