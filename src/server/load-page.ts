// The one loader call path: HTML documents, page data and action revalidation all load a page here.
import { matchRoute, type RouteMatch } from "../shared/match-route";
import type { Loader, LoaderArgs, RouteModule } from "../shared/route-module";
import { isRedirect, type Redirect } from "../shared/redirect";
import { isNotFound } from "../shared/not-found";
import { pageView, titleOf } from "../shared/page-view";
import { type ErrorPayload, type LayoutPart, type PageData, type Params, STATUS } from "../shared/protocol";
import type { LayoutDefinition, LayoutModule, MountedLayout } from "../shared/layouts";
import { SHARED_CONTEXT, type RequestContext } from "../shared/middleware";
import { appendHeaders, unwrapData } from "../shared/answers";
import type { AppContext, Phase } from "./context";
import { pageEnv } from "./d1-session";
import { cachedPageRequest, cachedUrl, policyOf } from "./cache-policy";
import { headTags } from "./head";
import { timed } from "./timings";

export interface LoadedPage {
  page: PageData;
  module: RouteModule | null;
  /** The layouts around the page, outermost first (none for most pages). */
  layouts: MountedLayout[];
  /** The per-visitor loader's data, pending (startVisitor); pages without one: undefined. */
  visitor?: Promise<unknown>;
  /** What the loaders added to the answer with `data(value, { headers })`. */
  headers?: Headers;
}

export const NOT_FOUND_TITLE = "Page not found";

/** The route a URL names, with its module and its layouts' modules loaded. */
export interface ResolvedRoute {
  match: RouteMatch<RouteModule>;
  module: RouteModule;
  layouts: ResolvedLayout[];
}

export interface ResolvedLayout {
  definition: LayoutDefinition;
  module: LayoutModule;
}

/** The route `url` names and its modules, or null (not found); the log line names the route. */
export function resolveRoute(c: AppContext, url: URL): Promise<ResolvedRoute | null> {
  return timed(c, "match", () => {
    const match = matchRoute(c.get("app").routes, url.pathname);
    return match && modulesOf(c, match);
  });
}

/** The modules of a route already matched (an endpoint's, by request-kind.ts), as resolveRoute's. */
export const loadRoute = (c: AppContext, match: RouteMatch<RouteModule>): Promise<ResolvedRoute> =>
  timed(c, "match", () => modulesOf(c, match));

/** A matched route's module and its layouts', loaded at once; the log line names the route. */
async function modulesOf(c: AppContext, match: RouteMatch<RouteModule>): Promise<ResolvedRoute> {
  c.get("log").route = match.route.path;
  const definitions = match.route.layouts ?? [];
  const [module, ...layouts] = await Promise.all([
    match.route.load(),
    ...definitions.map((definition) => definition.load()),
  ]);
  return {
    match,
    module: module as RouteModule,
    layouts: layouts.map((layout, i) => ({ definition: definitions[i]!, module: layout as LayoutModule })),
  };
}

/** What one loader came to: its data, a redirect, notFound(), or its failure's digest. */
type Outcome =
  { data: unknown; status?: number } | { redirect: Redirect } | { notFound: true } | { error: ErrorPayload };

const NOT_FOUND: Outcome = { notFound: true };

/**
 * Runs the loaders of `route` (resolveRoute's answer for `url`; null: the not-found page) and of
 * every layout around it, all at once: none waits for another. A loader that returns or throws a
 * redirect yields the Redirect (the outermost one's wins). A page without layouts or an ErrorView
 * of its own lets its loader's failure propagate; otherwise a failure is the page's (or layout's)
 * error, shown by the error view above it, and the answer's status is 500. A notFound() shows the
 * app's not-found view in that loader's place, with 404 (the outermost failure or notFound wins).
 * `request` may be a function: a Request derived for the page (page data without its marker,
 * an action's reload) is then built only if a loader reads `request`; most read `url` only.
 * `keep`: layouts whose data the client has (page data): their loaders do not run.
 * `notFoundAt`: a middleware of that depth said notFound() (loadNotFound): no loader below it runs.
 */
export async function loadPage(
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
  route: ResolvedRoute | null,
  /** The page's per-visitor loader, started (by default here, with `request` as sent). */
  visitor = startVisitor(c, url, request, route),
  keep: ReadonlySet<string> = NO_LAYOUTS,
  notFoundAt = Infinity,
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
    return { page, module: null, layouts: [] };
  }
  const { match, module, layouts } = route;
  const policy = policyOf(module);
  let context = c.get("context") ?? SHARED_CONTEXT;
  if (policy) {
    // A cached page is the same for every visitor: it cannot read who they are, or what else
    // their URL says (cache-policy.ts), nor what middleware learnt of them.
    const original = request;
    url = cachedUrl(url, policy);
    request = () => cachedPageRequest(typeof original === "function" ? original() : original, url);
    context = SHARED_CONTEXT;
  }
  const headers = new Headers();
  const args = (params: Params) => loaderArgs(c, url, params, request, context);
  const contained = layouts.length > 0 || module.ErrorView !== undefined;
  const run = (phase: Phase, loader: Loader | undefined, params: Params) =>
    loader ? settle(c, phase, () => loader(args(params)), headers, contained) : undefined;
  // Every loader starts now, the page's and each layout's: no waterfall.
  const started = layouts.map(({ definition, module }, i) =>
    i >= notFoundAt
      ? NOT_FOUND
      : keep.has(definition.id)
        ? null
        : run(`layout:${definition.id}`, module.loader, ownParams(match.params, definition)),
  );
  const own = notFoundAt <= layouts.length ? NOT_FOUND : run("loader", module.loader, match.params);
  const outcomes = await Promise.all([...started, own]);
  const settled: (Exclude<Outcome, { redirect: Redirect }> | null | undefined)[] = [];
  for (const outcome of outcomes) {
    if (outcome && "redirect" in outcome) return outcome.redirect;
    settled.push(outcome);
  }
  // What the page shows: the outermost failure or notFound(), else the page itself.
  const stop = settled.find((outcome) => outcome && !("data" in outcome));
  const notFound = !!stop && "notFound" in stop;
  const pageOutcome = settled.pop();
  const parts: Record<string, LayoutPart> = {};
  layouts.forEach(({ definition }, i) => {
    const outcome = settled[i];
    if (outcome) parts[definition.id] = "data" in outcome ? { data: outcome.data } : outcome;
  });
  const data = pageOutcome && "data" in pageOutcome ? pageOutcome.data : null;
  const error = pageOutcome && "error" in pageOutcome ? pageOutcome.error : undefined;
  let title = notFound ? NOT_FOUND_TITLE : titleOf(module, data);
  for (let i = layouts.length - 1; i >= 0; i--) title = layouts[i]!.module.title?.(title) ?? title;
  const page: PageData = {
    route: match.route.path,
    params: match.params,
    data: notFound ? null : data,
    title,
    head: headTags(
      c,
      url,
      notFound ? null : module,
      data,
      title,
      layouts.map((layout) => layout.module.meta),
    ),
    build: manifest.build,
    status: stop
      ? notFound
        ? STATUS.notFound
        : STATUS.serverError
      : (pageOutcome && "data" in pageOutcome && pageOutcome.status) || STATUS.ok,
    ...(error ? { error } : {}),
    ...(notFound ? { notFound } : {}),
    ...(layouts.length > 0 ? { layouts: parts } : {}),
  };
  return { page, module, layouts: mounted(route), visitor: notFound ? undefined : visitor, headers };
}

/**
 * The page at `url` as the not-found view, inside the layouts above `depth` (their loaders run),
 * for a middleware of that depth or an action that said notFound().
 */
export const loadNotFound = (
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
  route: ResolvedRoute,
  depth: number,
) => loadPage(c, url, request, route, undefined, NO_LAYOUTS, depth);

const NO_LAYOUTS: ReadonlySet<string> = new Set();

/** The layouts of `route` as the document renders them. */
export const mounted = (route: ResolvedRoute): MountedLayout[] =>
  route.layouts.map(({ definition, module }) => ({ id: definition.id, module }));

/** The params a layout reads: those of the prefix its pages share. */
function ownParams(params: Params, layout: LayoutDefinition): Params {
  const own: Params = {};
  for (const name of layout.params) own[name] = params[name]!;
  return own;
}

/**
 * One loader's outcome: its data as the page sees it (pageView), a redirect, notFound(), or, where
 * an error view will show it (`contained`), its failure's digest; else its failure propagates.
 */
async function settle(
  c: AppContext,
  phase: Phase,
  load: () => unknown,
  headers: Headers,
  contained: boolean,
): Promise<Outcome> {
  try {
    const result = await timed(c, phase, load);
    if (isRedirect(result)) return { redirect: result };
    if (isNotFound(result)) return NOT_FOUND;
    const { value, status, headers: added } = unwrapData(result);
    appendHeaders(headers, added);
    // What the page renders with, on the server as after hydration: the data through JSON.
    return { data: pageView(value), status };
  } catch (thrown) {
    if (isRedirect(thrown)) return { redirect: thrown };
    if (isNotFound(thrown)) return NOT_FOUND;
    if (!contained) throw thrown;
    return { error: { digest: c.get("capture")(thrown) } };
  }
}

function loaderArgs(
  c: AppContext,
  url: URL,
  params: Params,
  request: Request | (() => Request),
  context: RequestContext = c.get("context") ?? SHARED_CONTEXT,
): LoaderArgs {
  let built = typeof request === "function" ? undefined : request;
  return {
    get request() {
      return (built ??= (request as () => Request)());
    },
    url,
    params,
    env: pageEnv(c),
    ctx: c.executionCtx,
    context,
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
