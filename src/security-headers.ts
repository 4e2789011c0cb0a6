// Security headers for every answer (DESIGN.md "Security headers"), with a fresh CSP nonce per request.
import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./context";

/**
 * sha256 of the inline script `wrangler dev --live-reload` appends to HTML (wrangler 4.86.0,
 * templates/startDevWorker/ProxyWorker.ts). It carries no nonce, so the CSP names it by hash,
 * in development only; test/node/live-reload-hash.test.ts fails when a wrangler update changes it.
 */
export const WRANGLER_LIVE_RELOAD_HASH = "'sha256-g5a3SrOYIecCloZ8S7M4xdT1pbYi6e7mjHrmwphRxfE='";

function headers(extraScriptSrc: string[]) {
  return secureHeaders({
    contentSecurityPolicy: {
      scriptSrc: [NONCE, "'strict-dynamic'", ...extraScriptSrc],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
  });
}

/** Production headers; `npm run dev` sets DEV_LIVE_RELOAD so wrangler's reload script may run. */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  const production = headers([]);
  const liveReload = headers([WRANGLER_LIVE_RELOAD_HASH]);
  return async function securityHeaders(c, next) {
    return (c.env?.DEV_LIVE_RELOAD ? liveReload : production)(c, next);
  };
}
