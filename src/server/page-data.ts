// Page-data answers: the page's own URL with X-Page-Data, answered with the JSON the client renders from.
import {
  BUILD_HEADER,
  PAGE_DATA_PARAM,
  STATUS,
  type PageData,
  type RedirectPayload,
} from "../shared/protocol";
import { isRedirect, redirectLocation } from "../shared/route-module";
import type { AppContext } from "./context";
import { loadPage, resolveRoute, startVisitor, type ResolvedRoute } from "./load-page";
import { settleDeferred, settledVisitor } from "./deferred";
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
  const request = url.href === c.req.url ? c.req.raw : () => new Request(url, c.req.raw);
  const route = await resolveRoute(c, url);
  // A page's per-visitor part is never cached: its loader runs beside the shared one's lookup.
  const visitor = startVisitor(c, url, request, route);
  const shared = await cachedAnswer(c, "data", url, route, (route) =>
    loadPageData(c, url, request, route, visitor),
  );
  if (!visitor || shared.status !== STATUS.ok) return shared;
  const page = (await shared.json()) as PageData | RedirectPayload;
  const own = "redirect" in page ? {} : await settledVisitor(c, visitor);
  return new Response(JSON.stringify({ ...page, ...own }), shared);
}

async function loadPageData(
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
  route: ResolvedRoute | null,
  visitor: Promise<unknown> | undefined,
): Promise<Response> {
  const loaded = await loadPage(c, url, request, route, visitor);
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
