// Page-data answers: the page's own URL with X-Page-Data, answered with the JSON the client renders from.
import { BUILD_HEADER, PAGE_DATA_PARAM, STATUS, type RedirectPayload } from "../shared/protocol";
import { isRedirect, redirectLocation } from "../shared/route-module";
import type { AppContext } from "./context";
import { loadPage, type ResolvedRoute } from "./load-page";
import { settleDeferred } from "./deferred";
import { HttpError } from "./errors";
import { answerHeaders } from "./headers";
import { jsonResponse } from "./respond";
import { cachedAnswer, uncacheable } from "./page-cache";

/** The page URL without the cache-busting marker parameter, as matching and loaders see it. */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  url.searchParams.delete(PAGE_DATA_PARAM);
  return url;
}

/** 409 when the client runs another build than the server: it does a full page load instead. */
export function assertSameBuild(c: AppContext): void {
  const build = c.req.header(BUILD_HEADER);
  const current = c.get("app").manifest.build;
  if (build !== undefined && build !== current) {
    throw new HttpError(STATUS.conflict, "The page was loaded from another build; reload it.", {
      body: { build: current, reload: true },
    });
  }
}

export async function pageDataResponse(c: AppContext): Promise<Response> {
  assertSameBuild(c);
  const url = pageUrl(c.req.raw);
  return cachedAnswer(c, "data", url, (route) => loadPageData(c, url, route));
}

async function loadPageData(c: AppContext, url: URL, route: ResolvedRoute | null): Promise<Response> {
  const request = url.href === c.req.url ? c.req.raw : () => new Request(url, c.req.raw);
  const loaded = await loadPage(c, url, request, route);
  if (isRedirect(loaded)) {
    const redirect = redirectLocation(loaded, url);
    // A 200 like a page's data, but a redirect: not stored, as a document's 303 is not.
    return uncacheable(
      jsonResponse({ redirect } satisfies RedirectPayload, STATUS.ok, answerHeaders("data")),
    );
  }
  const { page, module } = loaded;
  const data = await settleDeferred(c, page.data);
  return jsonResponse({ ...page, data }, page.status, answerHeaders("data", module));
}
