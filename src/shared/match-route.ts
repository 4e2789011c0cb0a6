// Matching a path against the route table, shared by the worker and the client router: patterns
// like "/errors/:kind". The browser has no table: its router (loaded on the first sign of
// navigation) matches a path against the one line the server gave for it (client/discovery.ts).
import type { Params } from "./protocol";
import type { RouteDefinition } from "./routing";

export interface RouteMatch<M = unknown> {
  route: RouteDefinition<M>;
  params: Params;
}

/**
 * A path's segments. One trailing slash is tolerated ("/slow/" is "/slow"); any other
 * empty segment ("//", "/a//b") is kept, so such paths match no route and answer 404.
 */
function segments(pathname: string): string[] {
  const parts = pathname.split("/").slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** Route patterns split once, not on every request: the table is fixed for the life of the isolate. */
const PATTERNS = new Map<string, string[]>();

function patternSegments(pattern: string): string[] {
  let parts = PATTERNS.get(pattern);
  if (!parts) PATTERNS.set(pattern, (parts = segments(pattern)));
  return parts;
}

/** The first route whose pattern matches `pathname`, with its decoded params. */
export function matchRoute<M>(routes: readonly RouteDefinition<M>[], pathname: string): RouteMatch<M> | null {
  const parts = segments(pathname);
  for (const candidate of routes) {
    const pattern = patternSegments(candidate.path);
    if (pattern.length !== parts.length) continue;
    const params: Params = {};
    let matched = true;
    for (let i = 0; i < pattern.length && matched; i++) {
      const want = pattern[i]!;
      const got = parts[i]!;
      if (want.startsWith(":")) {
        const value = safeDecode(got);
        if (value === null || value === "") matched = false;
        else params[want.slice(1)] = value;
      } else if (want !== got) {
        matched = false;
      }
    }
    if (matched) return { route: candidate, params };
  }
  return null;
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
