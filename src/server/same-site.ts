// The one rule for what a browser may post from where: actions and the relay both refuse cross-site posts.

function allowedOrigins(env: Env): Set<string> {
  return new Set(
    (env.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ""),
  );
}

/**
 * Whether `request` may have been sent by the site's own pages. The browser's Origin is compared
 * with the request's own origin and the ALLOWED_ORIGINS list; "null" (sandboxed frames, some
 * redirects) never passes. An allowed origin passes even when Sec-Fetch-Site says cross-site:
 * allowing it is what the list is for. Requests with neither header come from non-browser
 * clients, which another site cannot make a visitor's browser send.
 */
export function isSameSite(request: Request, env: Env): boolean {
  const origin = request.headers.get("Origin");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (origin !== null) {
    if (origin === new URL(request.url).origin && fetchSite !== "cross-site") return true;
    return origin !== "null" && allowedOrigins(env).has(origin);
  }
  return fetchSite !== "cross-site";
}
