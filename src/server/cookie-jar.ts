// The Cookie header a browser sends once it has taken an answer's Set-Cookie lines: what the
// loaders that answer with an action see, so a preference it saved applies at once.

/** `cookie` (a request's Cookie header) after `setCookies` for the page at `url`; null: none left. */
export function cookiesAfter(
  cookie: string | null,
  setCookies: readonly string[],
  url: URL,
  now = Date.now(),
): string | null {
  if (setCookies.length === 0) return cookie;
  // By name: the pair as the browser sends it (a pair without "=" is a value alone, kept as is).
  const jar = new Map<string, string>();
  for (const pair of (cookie ?? "").split(";")) {
    const trimmed = pair.trim();
    if (trimmed === "") continue;
    const name = trimmed.split("=", 1)[0]!.trim();
    if (!jar.has(name)) jar.set(name, trimmed);
  }
  for (const line of setCookies) {
    const [pair = "", ...attributes] = line.split(";");
    const at = pair.indexOf("=");
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    const seen = settings(attributes);
    // Set for another path: the browser keeps it, but does not send it to this page.
    if (seen.path !== undefined && !pathMatches(url.pathname, seen.path)) continue;
    if (expired(seen, now)) jar.delete(name);
    else jar.set(name, `${name}=${pair.slice(at + 1).trim()}`);
  }
  return jar.size === 0 ? null : [...jar.values()].join("; ");
}

function settings(attributes: readonly string[]): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    seen[key] = at < 0 ? "" : attribute.slice(at + 1).trim();
  }
  return seen;
}

/** Removed: Max-Age of zero or less, or (without Max-Age, which wins) an Expires in the past. */
function expired(seen: Record<string, string>, now: number): boolean {
  const maxAge = seen["max-age"];
  if (maxAge !== undefined && /^-?\d+$/.test(maxAge)) return Number(maxAge) <= 0;
  const expires = seen.expires === undefined ? NaN : Date.parse(seen.expires);
  return expires <= now;
}

/** RFC 6265's path match: the same path, or one below the cookie's. */
function pathMatches(path: string, cookiePath: string): boolean {
  if (!cookiePath.startsWith("/") || path === cookiePath) return true;
  return path.startsWith(cookiePath) && (cookiePath.endsWith("/") || path[cookiePath.length] === "/");
}
