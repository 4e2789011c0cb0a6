// The one loader call path: HTML documents, page data and action revalidation all load a page here.
import { routes } from "./app/routes";
import { matchRoute } from "./routing";
import { isRedirect, titleOf, type LoaderArgs, type Redirect, type RouteModule } from "./route-module";
import { clientManifest } from "./manifest";
import { STATUS, type DeferredMarker, type PageData, type Params } from "./protocol";
import { tagDeferred, type Settled } from "./await";
import type { AppContext } from "./context";

export interface LoadedPage {
  page: PageData;
  module: RouteModule | null;
}

export const NOT_FOUND_TITLE = "Page not found";

/**
 * Matches `url` against the route table and runs the route's loader. A loader
 * that returns or throws a redirect yields the Redirect; other throws propagate.
 * `request` may be a function: a Request derived for the page (page data without its marker,
 * an action's reload) is then built only if the loader reads `request`; most read `url` only.
 */
export async function loadPage(
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
): Promise<LoadedPage | Redirect> {
  const match = matchRoute(routes, url.pathname);
  if (!match) {
    const page: PageData = {
      route: null,
      params: {},
      data: null,
      title: NOT_FOUND_TITLE,
      build: clientManifest.build,
      status: STATUS.notFound,
    };
    return { page, module: null };
  }
  c.get("log").route = match.route.path;
  const module = await match.route.load();
  let data: unknown = null;
  if (module.loader) {
    try {
      data = await module.loader(loaderArgs(c, url, match.params, request));
    } catch (thrown) {
      if (isRedirect(thrown)) return thrown;
      throw thrown;
    }
    if (isRedirect(data)) return data;
  }
  const page: PageData = {
    route: match.route.path,
    params: match.params,
    data,
    title: titleOf(module, data),
    build: clientManifest.build,
    status: STATUS.ok,
  };
  return { page, module };
}

function loaderArgs(c: AppContext, url: URL, params: Params, request: Request | (() => Request)): LoaderArgs {
  let built = typeof request === "function" ? undefined : request;
  return {
    get request() {
      return (built ??= (request as () => Request)());
    },
    url,
    params,
    env: c.env,
    ctx: c.executionCtx,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

/** How long a deferred loader value may stay pending (DEFERRED_TIMEOUT_MS overrides it). */
export const DEFAULT_DEFERRED_TIMEOUT_MS = 10_000;

/** What a deferred value that missed its deadline settles with: an error, with a digest like any other. */
export class DeferredTimeoutError extends Error {
  override name = "DeferredTimeoutError";
}

function deferredTimeout(env: { DEFERRED_TIMEOUT_MS?: string }): number {
  return Number(env.DEFERRED_TIMEOUT_MS) || DEFAULT_DEFERRED_TIMEOUT_MS;
}

/**
 * Splits a loader's top-level promises out of its data: `live` holds settled, tagged
 * promises for rendering; `json` holds markers in their place for the embedded page data.
 * A rejection is captured (the request's log line, Sentry) and settles to its digest; so does
 * a value still pending after DEFERRED_TIMEOUT_MS, so every streamed response and page-data
 * answer ends. The deadline is the only timer: pages without deferred values pay for none.
 */
export function splitDeferred(c: AppContext, data: unknown): { live: unknown; json: unknown } {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { live: data, json: data };
  const entries = Object.entries(data);
  if (!entries.some(([, value]) => isThenable(value))) return { live: data, json: data };
  const capture = c.get("capture");
  const timeoutMs = deferredTimeout(c.env);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeferredTimeoutError(`Deferred loader data did not settle within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const live: Record<string, unknown> = {};
  const json: Record<string, unknown> = {};
  const pending: Promise<unknown>[] = [];
  for (const [key, value] of entries) {
    if (isThenable(value)) {
      const settled: Promise<Settled<unknown>> = Promise.race([value, deadline]).then(
        (resolved) => ({ value: resolved }),
        (error: unknown) => ({ error: { digest: capture(error) } }),
      );
      pending.push(settled);
      live[key] = tagDeferred(key, settled);
      json[key] = { $deferred: key } satisfies DeferredMarker;
    } else {
      live[key] = json[key] = value;
    }
  }
  void Promise.all(pending).then(() => clearTimeout(timer));
  return { live, json };
}

/** For page-data answers: waits for every deferred value, keeping each as a settled marker. */
export async function settleDeferred(c: AppContext, data: unknown): Promise<unknown> {
  const { live, json } = splitDeferred(c, data);
  if (live === json) return data;
  const settled: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(live as Record<string, unknown>)) {
    settled[key] = isThenable(value) ? { $deferred: key, settled: await value } : value;
  }
  return settled;
}
