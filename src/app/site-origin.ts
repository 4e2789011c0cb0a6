// The site's public origin for absolute addresses (robots.txt, the sitemap): CANONICAL_ORIGIN,
// as the pages' canonical links use it, or else the request's own.
import type { PageEnv } from "verge";

export function siteOrigin(env: PageEnv, url: URL): string {
  const configured = env.CANONICAL_ORIGIN;
  if (!configured) return url.origin;
  const origin = URL.canParse(configured) ? new URL(configured).origin : "null";
  // A typo would send crawlers elsewhere: fail loudly instead (500, logged), as pages do.
  if (origin === "null")
    throw new TypeError(`CANONICAL_ORIGIN is not an origin: ${JSON.stringify(configured)}`);
  return origin;
}
