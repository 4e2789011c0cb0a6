// Page-data answers: the page's own URL with X-Page-Data, answered with the JSON the client renders from.
import { BUILD_HEADER, DATA_HEADERS, PAGE_DATA_PARAM, STATUS, type RedirectPayload } from "./protocol";
import { loadPage, settleDeferred } from "./page-load";
import { isRedirect } from "./route-module";
import { clientManifest } from "./manifest";
import { HttpError } from "./errors";
import { jsonResponse } from "./http";
import type { AppContext } from "./context";

/** The page URL without the cache-busting marker parameter, as matching and loaders see it. */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  url.searchParams.delete(PAGE_DATA_PARAM);
  return url;
}

/** 409 when the client runs another build than the server: it does a full page load instead. */
export function assertSameBuild(c: AppContext): void {
  const build = c.req.header(BUILD_HEADER);
  if (build !== undefined && build !== clientManifest.build) {
    throw new HttpError(STATUS.conflict, "The page was loaded from another build; reload it.", {
      body: { build: clientManifest.build, reload: true },
    });
  }
}

export async function pageDataResponse(c: AppContext): Promise<Response> {
  assertSameBuild(c);
  const url = pageUrl(c.req.raw);
  const request = url.href === c.req.url ? c.req.raw : () => new Request(url, c.req.raw);
  const loaded = await loadPage(c, url, request);
  if (isRedirect(loaded)) {
    return jsonResponse(c, { redirect: loaded.location } satisfies RedirectPayload, STATUS.ok, DATA_HEADERS);
  }
  const { page, module } = loaded;
  const headers = module?.cacheControl
    ? { ...DATA_HEADERS, "Cache-Control": module.cacheControl }
    : DATA_HEADERS;
  const data = await settleDeferred(c, page.data);
  return jsonResponse(c, { ...page, data }, page.status, headers);
}
