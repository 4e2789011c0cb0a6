// Route discovery, for the router: which route line a path has, asked of the server once per path
// (the first load carries only its own page's line). A path's answer is kept for the page's life:
// the table is fixed for a build, and the answer names the build.
import { matchRoute, type RouteMatch } from "../src/shared/match-route";
import { ROUTES_PATH, STATUS, type RouteLine, type RoutesAnswer } from "../src/shared/protocol";
import type { RouteModule } from "../src/shared/route-module";
import type { RouteDefinition } from "../src/shared/routing";
import { routeOf } from "./route-lines";

/** By path: its route, null when none matches, or undefined when it could not be known (a full load). */
type Known = RouteDefinition<RouteModule> | null | undefined;

const known = new Map<string, Promise<Known>>();

/** Records what the page on screen was rendered from: its path needs no question. */
export function knowLine(pathname: string, line: RouteLine | undefined): void {
  known.set(pathname, Promise.resolve(line ? routeOf(line) : null));
}

/** Asks the server for `pathname`'s line. Another build, an error or no network: undefined. */
async function ask(pathname: string, build: string): Promise<Known> {
  const url = `${ROUTES_PATH}?${new URLSearchParams({ build, path: pathname })}`;
  const response = await fetch(url).catch(() => undefined);
  if (response?.status !== STATUS.ok) return undefined;
  const answer = (await response.json().catch(() => null)) as RoutesAnswer | null;
  const line = answer?.routes[pathname];
  return line === undefined ? undefined : line && routeOf(line);
}

/**
 * The route `pathname` matches, with its params; null when no route does or it cannot be known
 * now: the page then loads in full (the server's document says what it is).
 */
export async function discover(pathname: string, build: string): Promise<RouteMatch<RouteModule> | null> {
  let route = known.get(pathname);
  if (!route) {
    known.set(pathname, (route = ask(pathname, build)));
    // Not known now (offline, another build): the next intent asks again.
    void route.then((found) => found === undefined && known.delete(pathname));
  }
  const found = await route;
  return found ? matchRoute([found], pathname) : null;
}
