// Page-data requests, and the short-lived cache that makes a click after hover, focus or touch instant.
import { BUILD_HEADER, PAGE_DATA_HEADER, PAGE_DATA_PARAM, STATUS } from "../src/shared/protocol";
import type { ErrorPayload, PageData, RedirectPayload } from "../src/shared/protocol";
import { keepBookmark, withBookmark } from "./bookmark";

/** A page to render, a loader failure to show, a redirect to follow, or null: do a full page load. */
export type Answer = { page: PageData } | { error: ErrorPayload } | RedirectPayload | null;

/** Long enough to cover hover-then-click, short enough that a page is not shown stale. */
export const PREFETCH_TTL_MS = 10_000;

const cache = new Map<string, { at: number; answer: Promise<Answer> }>();
const keyOf = (url: URL) => url.pathname + url.search;

/**
 * GETs the page's own URL as page data (the `_data` marker keeps shared caches apart); its value
 * names the layouts whose data the client keeps on screen (`keep`), which the answer leaves out.
 */
export async function requestPage(
  url: URL,
  build: string,
  signal?: AbortSignal,
  keep: readonly string[] = [],
): Promise<Answer> {
  const target = new URL(url);
  target.hash = "";
  target.searchParams.set(PAGE_DATA_PARAM, keep.length > 0 ? keep.join(",") : "1");
  const response = await fetch(target, {
    headers: withBookmark({ [PAGE_DATA_HEADER]: "1", [BUILD_HEADER]: build }),
    signal,
  });
  keepBookmark(response);
  // Followed HTTP redirects (a proxy, a login wall): this is another address's answer, and
  // showing it under the requested one would lie; the document load lets the browser follow.
  if (response.redirected) return null;
  type Body = Partial<PageData & RedirectPayload> | null;
  const body = (await response.json().catch(() => null)) as Body;
  if (!body) return null;
  if (response.ok && typeof body.redirect === "string") return { redirect: body.redirect };
  // A page below a layout whose loader (or a layout's) failed is a page too: its error view
  // shows inside the layouts above.
  const page = response.ok || response.status === STATUS.notFound || response.status === STATUS.serverError;
  if (page && "route" in body) return { page: body as PageData };
  if (response.status === STATUS.serverError && body.error?.digest) return { error: body.error };
  // 409 (another build) and anything unexpected: the server's own document says it best.
  return null;
}

/** Starts a page-data request for `url` unless a fresh one is already cached. */
export function prefetch(url: URL, build: string, keep?: readonly string[]): void {
  const hit = cache.get(keyOf(url));
  if (hit && Date.now() - hit.at < PREFETCH_TTL_MS) return;
  const answer = requestPage(url, build, undefined, keep);
  answer.catch(() => cache.delete(keyOf(url)));
  cache.set(keyOf(url), { at: Date.now(), answer });
}

/** A fresh prefetched answer, used once: a later visit asks again. */
export function takePrefetched(url: URL): Promise<Answer> | undefined {
  const hit = cache.get(keyOf(url));
  cache.delete(keyOf(url));
  return hit && Date.now() - hit.at < PREFETCH_TTL_MS ? hit.answer : undefined;
}

/** After a mutation every prefetched page may be stale. */
export function clearPrefetched(): void {
  cache.clear();
}
