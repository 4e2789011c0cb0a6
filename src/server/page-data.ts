// Page-data answers: the page's own URL with X-Page-Data, answered with the JSON the client renders from.
import {
  MAX_ACTION_BODY_BYTES,
  PAGE_DATA_PARAM,
  type PageData,
  type RedirectPayload,
  STATUS,
} from "../shared/protocol";
import { isRedirect } from "../shared/redirect";
import { appendHeaders } from "../shared/answers";
import type { AppContext } from "./context";
import { loadPage, startVisitor, type ResolvedRoute } from "./load-page";
import { settleDeferred, settledVisitor } from "./deferred";
import { assertSameBuild, bodyTooLarge } from "./guards";
import { answerHeaders } from "./headers";
import { jsonResponse } from "./respond";
import { cachedAnswer } from "./page-cache";
import { policyOf } from "./cache-policy";
import { redirectAnswer } from "./redirects";
import { pageUrl, type RequestHandler } from "./request-handler";

export const pageDataHandler: RequestHandler = {
  target: pageUrl,
  routed: true,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: bodyTooLarge,
  // A client of another build is sent to load the page whole, before any page code runs.
  guards: (c) => assertSameBuild(c),
  answer: pageDataResponse,
};

async function pageDataResponse(c: AppContext, url: URL, route: ResolvedRoute | null): Promise<Response> {
  const request = url.href === c.req.url ? c.req.raw : () => new Request(url, c.req.raw);
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
  return new Response(JSON.stringify({ ...page, layouts: withoutKept(page.layouts, kept), ...own }), shared);
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
