// Every header policy in one place: the security headers (hono/secure-headers, with a fresh CSP
// nonce per request), and the caching and Vary headers of each kind of answer.
import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { PAGE_DATA_HEADER, STATUS } from "../shared/protocol";
import type { RouteModule } from "../shared/route-module";
import type { AppContext, AppEnv } from "./context";

/**
 * sha256 of the inline script `wrangler dev --live-reload` appends to HTML (wrangler 4.86.0,
 * templates/startDevWorker/ProxyWorker.ts). It carries no nonce, so the CSP names it by hash,
 * in development only; test/node/live-reload-hash.test.ts fails when a wrangler update changes it.
 */
export const WRANGLER_LIVE_RELOAD_HASH = "'sha256-g5a3SrOYIecCloZ8S7M4xdT1pbYi6e7mjHrmwphRxfE='";

/** The CSP of docs/protocol.md, in its order; `extra` script sources follow 'strict-dynamic'. */
function policy(extra: string[]) {
  return secureHeaders({
    contentSecurityPolicy: {
      scriptSrc: [NONCE, "'strict-dynamic'", ...extra],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: "strict-origin-when-cross-origin",
    // A year: the least Lighthouse's HSTS audit accepts. Not `preload`: that commits the whole
    // registrable domain and every subdomain to HTTPS in browsers' builds for months, which is
    // the domain owner's decision, not this app's (and *.workers.dev is under .dev, preloaded).
    strictTransportSecurity: "max-age=31536000; includeSubDomains",
    xFrameOptions: "DENY",
  });
}

const production = policy([]);
/** Under `npm run dev` (DEV_SERVER), wrangler's reload script may run. */
const development = policy([WRANGLER_LIVE_RELOAD_HASH]);

/**
 * 18 random bytes (144 bits; CSP asks for at least 128): 24 base64 characters with no padding.
 * Set before hono's middleware runs, which then uses it instead of its own.
 */
export function generateNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
}

/** This response's CSP nonce: the page's scripts and the CSP header share it. */
export function requestNonce(c: AppContext): string {
  return c.get("secureHeadersNonce")!;
}

/**
 * The nonce a document is rendered with: the response's, or one no visitor is sent when the page
 * may be stored (page-cache.ts splices the response's in on its way out).
 */
export function renderNonce(c: AppContext): string {
  return c.get("renderNonce") ?? requestNonce(c);
}

/**
 * Every answer, whatever made it, carries the security headers and a fresh nonce; under
 * `npm run dev`, the dev server's policies too.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeaders(c, next) {
    c.set("secureHeadersNonce", generateNonce());
    if (!c.env?.DEV_SERVER) return production(c, next);
    await development(c, next);
    streamThroughDevServer(c.res);
  };
}

/**
 * Under `npm run dev` (DEV_SERVER): wrangler dev (4.86.0, miniflare's entry worker) gzips a
 * text answer for a browser that accepts gzip, and its gzip holds a streamed page until the page
 * ends (workers-sdk#6577): the shell would paint only once the slowest section arrived. An answer
 * that names its own encoding passes as it is, so HTML names "identity" there. Deployed, nothing
 * changes: Cloudflare compresses the stream without holding it.
 */
function streamThroughDevServer(response: Response): void {
  if (response.headers.has("Content-Encoding")) return;
  if (response.headers.get("Content-Type")?.startsWith("text/html"))
    response.headers.set("Content-Encoding", "identity");
}

/** What error pages, redirects and action answers tell every cache: they are about one request. */
export const NO_STORE = "no-store";

/** What a browser may cache, by kind of answer; a route may set its own (RouteModule.cacheControl). */
const CACHE_CONTROL = {
  // A page varies on the page-data marker (same URL, JSON answer) and must be revalidated.
  html: "private, no-cache",
  // Page data is per visitor and current.
  data: "private, no-store",
  // An action's answer reports one mutation: never reused.
  action: NO_STORE,
} as const;

/**
 * The caching headers of a page, page-data or action answer (the route's own Cache-Control first).
 * A page answered with another status than 200 (not found, a refused form) is no-store, whatever
 * the route says: it is about this request.
 */
export function answerHeaders(
  kind: keyof typeof CACHE_CONTROL,
  module?: Pick<RouteModule, "cacheControl"> | null,
  status: number = STATUS.ok,
): Record<string, string> {
  if (kind === "action") return { "Cache-Control": CACHE_CONTROL.action };
  if (kind === "html" && status !== STATUS.ok) return { Vary: PAGE_DATA_HEADER, "Cache-Control": NO_STORE };
  return { Vary: PAGE_DATA_HEADER, "Cache-Control": module?.cacheControl?.[kind] ?? CACHE_CONTROL[kind] };
}
