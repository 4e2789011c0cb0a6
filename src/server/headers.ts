// Every header policy in one place: the security headers (hono/secure-headers, with a fresh CSP
// nonce per request), and the caching and Vary headers of each kind of answer.
import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { PAGE_DATA_HEADER, STATUS } from "../shared/protocol";
import type { RouteModule } from "../shared/route-module";
import type { AppContext, AppEnv } from "./context";

/** The CSP of docs/protocol.md, in its order, and hono's other security headers. */
const policy = secureHeaders({
  contentSecurityPolicy: {
    scriptSrc: [NONCE, "'strict-dynamic'"],
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

/** Every answer, whatever made it, carries the security headers and a fresh nonce. */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeaders(c, next) {
    c.set("secureHeadersNonce", generateNonce());
    return policy(c, next);
  };
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
  kind: keyof typeof CACHE_CONTROL | "endpoint",
  module?: Pick<RouteModule, "cacheControl"> | null,
  status: number = STATUS.ok,
): Record<string, string> {
  // An endpoint's headers are its handler's and its middleware's own.
  if (kind === "endpoint") return {};
  if (kind === "action") return { "Cache-Control": CACHE_CONTROL.action };
  if (kind === "html" && status !== STATUS.ok) return { Vary: PAGE_DATA_HEADER, "Cache-Control": NO_STORE };
  return { Vary: PAGE_DATA_HEADER, "Cache-Control": module?.cacheControl?.[kind] ?? CACHE_CONTROL[kind] };
}
