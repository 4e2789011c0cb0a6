// Security headers for every answer (DESIGN.md "Security headers"), with a fresh CSP nonce per request.
import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv } from "./context";

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
const FIXED_HEADERS: Readonly<Record<string, string>> = {
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Origin-Agent-Cluster": "?1",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Strict-Transport-Security": "max-age=15552000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "X-DNS-Prefetch-Control": "off",
  "X-Download-Options": "noopen",
  "X-Frame-Options": "DENY",
  "X-Permitted-Cross-Domain-Policies": "none",
  "X-XSS-Protection": "0",
};

/** The CSP after the nonce: DESIGN.md's order; `extra` script sources follow 'strict-dynamic'. */
const cspTail = (extra: string) =>
  `' 'strict-dynamic'${extra}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`;
const PRODUCTION_CSP_TAIL = cspTail("");
const LIVE_RELOAD_CSP_TAIL = cspTail(` ${WRANGLER_LIVE_RELOAD_HASH}`);

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Filled anew for each nonce and read at once: one buffer per isolate, not one per request. */
const NONCE_BYTES = new Uint8Array(18);

/**
 * 18 random bytes (144 bits; CSP asks for at least 128) as 24 base64 characters, the length
 * hono's nonce had. Encoded in a loop: hono spreads the bytes into String.fromCharCode for
 * btoa, which showed in the profile of every request.
 */
export function generateNonce(): string {
  const b = crypto.getRandomValues(NONCE_BYTES);
  let nonce = "";
  // Three bytes make four characters: 18 bytes need no padding.
  for (let i = 0; i < 18; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    nonce += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]! + BASE64[(n >> 6) & 63]! + BASE64[n & 63]!;
  }
  return nonce;
}

/** This request's CSP; `npm run dev` sets DEV_LIVE_RELOAD so wrangler's reload script may run. */
function contentSecurityPolicy(c: AppContext): string {
  const tail = c.env?.DEV_LIVE_RELOAD ? LIVE_RELOAD_CSP_TAIL : PRODUCTION_CSP_TAIL;
  return `script-src 'nonce-${requestNonce(c)}${tail}`;
}

/** This request's CSP nonce, made on first use: the page's scripts and the CSP header share it. */
export function requestNonce(c: AppContext): string {
  let nonce = c.get("secureHeadersNonce");
  if (nonce === undefined) c.set("secureHeadersNonce", (nonce = generateNonce()));
  return nonce;
}

/** `headers` with the security headers added: what src/http.ts builds every answer with. */
export function withSecurityHeaders(
  c: AppContext,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  return {
    ...FIXED_HEADERS,
    "Content-Security-Policy": contentSecurityPolicy(c),
    ...headers,
  };
}

/**
 * Every answer carries the security headers. The app builds its answers with them
 * (src/http.ts respond); any other response gets them set here, after the handler.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeaders(c, next) {
    await next();
    if (c.res === c.get("securedResponse")) return;
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(withSecurityHeaders(c, {}))) headers.set(name, value);
  };
}
