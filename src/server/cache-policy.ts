// What a page's `cache` export means, and the rules the runtime holds pages to: a cached page's
// loader sees no header and only the query parameters it declared; no answer is shareable.
import type { MiddlewareHandler } from "hono";
import type { CachePolicy, RouteModule, RouteTable } from "../shared/route-module";
import type { AppEnv } from "./context";

export type Policy = Required<CachePolicy>;

/** The page's cache policy, or null when it is not cached (no `cache`, or `maxAge` 0). */
export function policyOf(module: RouteModule | null): Policy | null {
  const { maxAge = 0, staleWhileRevalidate = 0, query = [] } = module?.cache ?? {};
  return maxAge > 0 ? { maxAge, staleWhileRevalidate: Math.max(0, staleWhileRevalidate), query } : null;
}

/**
 * The page's URL as a cached page knows it, one spelling per page: without the trailing slash the
 * router tolerates, and only the query parameters it declared, sorted, each once (its first
 * value), so `/?utm_source=x` is `/` and `?page=1&page=1` is `?page=1`. Its loader sees this
 * URL, and its entries are kept under it: no spelling of the URL makes another entry.
 */
export function cachedUrl(url: URL, policy: Policy): URL {
  const path =
    url.pathname.length > 1 && url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
  const kept = new URL(url.origin + path);
  for (const name of [...new Set(policy.query)].sort()) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.searchParams.append(name, value);
  }
  return kept;
}

/**
 * The request a cached page's loader sees: its URL (declared query only) and method, and none of
 * the visitor's headers. A list of headers to drop always misses one (an access email, a language,
 * an address), and what the first visitor's loader reads is stored for everyone.
 */
export function cachedPageRequest(request: Request, url: URL): Request {
  return new Request(url, { method: request.method });
}

/** Directives that let a shared cache (a CDN, a proxy) keep an answer. */
const SHARED = /(^|[\s,])(public|s-maxage)\b/i;
/** Directives no shared cache stores under (`private="field"` names fields only, so not that). */
const UNSHARED = /(^|[\s,])(private|no-store)\s*(,|$)/i;

/** Why each kind must stay out of shared caches. */
const WHY = {
  html: "an HTML answer carries its own CSP nonce and form keys",
  data: "page data carries the answer's form keys and what its loader read for this visitor",
};

/** The reason `module` at `path` may not be served, or null. */
function brokenRule(module: RouteModule, path: string): string | null {
  for (const kind of ["html", "data"] as const) {
    const value = module.cacheControl?.[kind];
    if (value === undefined || (UNSHARED.test(value) && !SHARED.test(value))) continue;
    return (
      `Route "${path}" sets cacheControl.${kind} to "${value}": ${WHY[kind]}, so no shared cache ` +
      `may keep it (a copy would hand one visitor's to every other). Use "private, ..." or ` +
      `"no-store"; for the edge cache, export \`cache\`.`
    );
  }
  return null;
}

/**
 * Checks every route once: while one breaks a rule, every request answers 500 and logs why. Built,
 * the route modules are in the worker's bundle, so they load and are checked as the isolate
 * starts (`atStart`), not on its first request; under `vite dev` a module loads over the network,
 * which workerd allows only inside a request, so there the first request checks.
 */
export function routeRules(routes: RouteTable, atStart: boolean): MiddlewareHandler<AppEnv> {
  let checked: Promise<void> | undefined;
  const check = () =>
    (checked ??= Promise.all(routes.map(async (route) => brokenRule(await route.load(), route.path))).then(
      (reasons) => {
        const broken = reasons.filter((reason) => reason !== null);
        if (broken.length > 0) throw new Error(broken.join("\n"));
      },
    ));
  // Its error is thrown to each request below; here, unawaited, it would be an unhandled rejection.
  if (atStart) check().catch(() => {});
  return async function routeRules(_, next) {
    await check();
    await next();
  };
}
