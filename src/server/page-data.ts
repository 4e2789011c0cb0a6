// Page-data answers: the page's own URL with X-Page-Data, answered with the JSON the client renders from.
import {
  BUILD_HEADER,
  PAGE_DATA_PARAM,
  type PageData,
  type RedirectPayload,
  STATUS,
} from "../shared/protocol";
import { isRedirect } from "../shared/redirect";
import { appendHeaders } from "../shared/answers";
import type { AppContext } from "./context";
import { loadPage, resolveRoute, startVisitor, type ResolvedRoute } from "./load-page";
import { settleDeferred, settledVisitor } from "./deferred";
import { HttpError } from "./errors";
import { answerHeaders } from "./headers";
import { jsonResponse } from "./respond";
import { cachedAnswer } from "./page-cache";
import { policyOf } from "./cache-policy";
import { redirectAnswer } from "./redirects";
import { withMiddleware } from "./middleware";

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
  return withMiddleware(c, route, url, async () => {
    // A page's per-visitor part is never cached: its loader runs beside the shared one's lookup.
    const visitor = startVisitor(c, url, request, route);
    // What the client keeps on screen of the layouts around the page. A cached answer is every
    // client's, whatever it keeps: it holds every layout's data, left out on the way out.
    const listed = route?.layouts.length ? keptLayouts(c.req.raw) : NO_LAYOUTS;
    const cached = policyOf(route?.module ?? null) !== null;
    const shared = await cachedAnswer(c, "data", url, route, (route) =>
      loadPageData(c, url, request, route, visitor, cached ? NO_LAYOUTS : listed),
    );
    const kept = cached ? listed : NO_LAYOUTS;
    if ((!visitor && kept.size === 0) || shared.status !== STATUS.ok) return shared;
    const page = (await shared.json()) as PageData | RedirectPayload;
    if ("redirect" in page) return new Response(JSON.stringify(page), shared);
    const own = await settledVisitor(c, visitor);
    return new Response(
      JSON.stringify({ ...page, layouts: withoutKept(page.layouts, kept), ...own }),
      shared,
    );
  });
}

const NO_LAYOUTS: ReadonlySet<string> = new Set();

/** The layouts whose data the client keeps, as it listed them in the marker parameter. */
export function keptLayouts(request: Request): ReadonlySet<string> {
  const listed = new URL(request.url).searchParams.get(PAGE_DATA_PARAM);
  return listed ? new Set(listed.split(",")) : NO_LAYOUTS;
}

function withoutKept(layouts: PageData["layouts"], kept: ReadonlySet<string>): PageData["layouts"] {
  if (!layouts || kept.size === 0) return layouts;
  return Object.fromEntries(Object.entries(layouts).filter(([id]) => !kept.has(id)));
}

async function loadPageData(
  c: AppContext,
  url: URL,
  request: Request | (() => Request),
  route: ResolvedRoute | null,
  visitor: Promise<unknown> | undefined,
  keep: ReadonlySet<string>,
): Promise<Response> {
  const loaded = await loadPage(c, url, request, route, visitor, keep);
  if (isRedirect(loaded)) return redirectAnswer(c, loaded, url);
  const { page, module, headers } = loaded;
  const data = await settleDeferred(c, page.data);
  const response = jsonResponse({ ...page, data }, page.status, answerHeaders("data", module));
  appendHeaders(response.headers, headers);
  return response;
}
