// Security headers for every answer (DESIGN.md "Security headers"), with a fresh CSP nonce per request.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

/**
 * sha256 of the inline script `wrangler dev --live-reload` appends to HTML (wrangler 4.86.0,
 * templates/startDevWorker/ProxyWorker.ts). It carries no nonce, so the CSP names it by hash,
 * in development only; test/node/live-reload-hash.test.ts fails when a wrangler update changes it.
 */
export const WRANGLER_LIVE_RELOAD_HASH = "'sha256-g5a3SrOYIecCloZ8S7M4xdT1pbYi6e7mjHrmwphRxfE='";

/**
 * The headers hono/secure-headers set with our options (its defaults, a strict referrer policy,
 * DENY framing), written out once: hono's middleware rebuilt the header list and the CSP per
 * request. Only the nonce varies per request.
 */
const FIXED_HEADERS: readonly (readonly [string, string])[] = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "DENY"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/** The CSP after the nonce: DESIGN.md's order; `extra` script sources follow 'strict-dynamic'. */
const cspTail = (extra: string) =>
  `' 'strict-dynamic'${extra}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`;
const PRODUCTION_CSP_TAIL = cspTail("");
const LIVE_RELOAD_CSP_TAIL = cspTail(` ${WRANGLER_LIVE_RELOAD_HASH}`);

/** 16 random bytes, base64: the nonce hono generated, and what render.tsx reads. */
function generateNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Production headers; `npm run dev` sets DEV_LIVE_RELOAD so wrangler's reload script may run. */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeaders(c, next) {
    const nonce = generateNonce();
    c.set("secureHeadersNonce", nonce);
    await next();
    const headers = c.res.headers;
    for (const [name, value] of FIXED_HEADERS) headers.set(name, value);
    const tail = c.env?.DEV_LIVE_RELOAD ? LIVE_RELOAD_CSP_TAIL : PRODUCTION_CSP_TAIL;
    headers.set("Content-Security-Policy", `script-src 'nonce-${nonce}${tail}`);
  };
}
