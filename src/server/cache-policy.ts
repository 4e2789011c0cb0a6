// What a page's `cache` export means, and the rules the runtime holds a cached page to: its
// loader sees no credentials and only the query parameters it declared.
import type { CachePolicy, RouteModule } from "../shared/route-module";

export type Policy = Required<CachePolicy>;

/** The page's cache policy, or null when it is not cached (no `cache`, or `maxAge` 0). */
export function policyOf(module: RouteModule | null): Policy | null {
  const { maxAge = 0, staleWhileRevalidate = 0, query = [] } = module?.cache ?? {};
  return maxAge > 0 ? { maxAge, staleWhileRevalidate: Math.max(0, staleWhileRevalidate), query } : null;
}

/**
 * The page's URL as a cached page knows it: only the query parameters it declared, in the order
 * sent, so `/?utm_source=x` is `/`. Its loader sees this URL, and its entries are kept under it.
 */
export function cachedUrl(url: URL, policy: Policy): URL {
  const kept = new URL(url.origin + url.pathname);
  for (const [name, value] of url.searchParams) {
    if (policy.query.includes(name)) kept.searchParams.append(name, value);
  }
  return kept;
}

/** What would make a page one visitor's: headers a cached page's loader never sees. */
const CREDENTIAL_HEADERS = ["Cookie", "Authorization"];

/** The request a cached page's loader sees: at `url`, without the visitor's credentials. */
export function cachedPageRequest(request: Request, url: URL): Request {
  const headers = new Headers(request.headers);
  for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return new Request(url, { method: request.method, headers });
}
