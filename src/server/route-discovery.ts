// Route discovery: a first load carries its own page's route line only (embedded in the page
// data), and the browser asks here for the line of a path it has not seen, when a link to it is
// hovered, focused or followed. The answer is the build's table read for those paths, the same for
// every visitor: its URL names the build, so any cache may keep it for a year.
import { matchRoute } from "../shared/match-route";
import {
  MAX_ACTION_BODY_BYTES,
  MAX_DISCOVERED_PATHS,
  STATUS,
  type RouteLine,
  type RoutesAnswer,
} from "../shared/protocol";
import type { RouteTable } from "../shared/route-module";
import type { AppContext } from "./context";
import { HttpError } from "./errors";
import { bodyTooLarge } from "./guards";
import type { ClientManifest } from "./manifest";
import { routeLine } from "./route-line";
import { sentUrl, type RequestHandler } from "./request-handler";
import { jsonResponse } from "./respond";

/** Longer paths are refused: no route pattern is near this long. */
export const MAX_DISCOVERED_PATH_LENGTH = 1024;

/** One build's answer for one URL never changes: it may be kept as long as the assets are. */
export const DISCOVERY_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** The line of the route matching `path`, its modules loaded to know their chunks; null: none matches. */
async function lineFor(
  manifest: ClientManifest,
  routes: RouteTable,
  path: string,
): Promise<RouteLine | null> {
  const route = matchRoute(routes, path)?.route;
  if (!route) return null;
  if (route.kind === "endpoint") return routeLine(manifest, route, null, []);
  const [module, ...layouts] = await Promise.all([
    route.load(),
    ...(route.layouts ?? []).map((layout) => layout.load()),
  ]);
  return routeLine(manifest, route, module, layouts);
}

const badRequest = (message: string) => new HttpError(STATUS.badRequest, message);

/** The paths asked for, each once, after the checks that keep the work bounded. */
function askedPaths(c: AppContext, url: URL): string[] {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD") {
    throw new HttpError(STATUS.methodNotAllowed, "Method Not Allowed", { headers: { Allow: "GET, HEAD" } });
  }
  const build = url.searchParams.get("build");
  if (!build) throw badRequest("Name the build the page runs: ?build=<id>.");
  const paths = url.searchParams.getAll("path");
  if (paths.length === 0 || paths.length > MAX_DISCOVERED_PATHS) {
    throw badRequest(`Ask for 1 to ${MAX_DISCOVERED_PATHS} paths: ?path=/a&path=/b.`);
  }
  for (const path of paths) {
    if (!path.startsWith("/") || path.length > MAX_DISCOVERED_PATH_LENGTH) {
      throw badRequest(`Each path starts with / and has at most ${MAX_DISCOVERED_PATH_LENGTH} characters.`);
    }
  }
  const current = c.get("app").manifest.build;
  // Another build's table may differ: the page loads the path in full instead.
  if (build !== current) {
    throw new HttpError(STATUS.conflict, "The page was loaded from another build; reload it.");
  }
  return [...new Set(paths)];
}

/** `GET /__verge/routes?build=<id>&path=/a`: each path's route line, or null. */
export const discoveryHandler: RequestHandler<string[]> = {
  target: sentUrl,
  routed: false,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: bodyTooLarge,
  guards: (c, url) => askedPaths(c, url),
  async answer(c, _url, _route, paths) {
    const { manifest, routes } = c.get("app");
    const lines = await Promise.all(paths.map((path) => lineFor(manifest, routes, path)));
    const answer: RoutesAnswer = {
      build: manifest.build,
      routes: Object.fromEntries(paths.map((path, i) => [path, lines[i]!])),
    };
    return jsonResponse(answer, STATUS.ok, { "Cache-Control": DISCOVERY_CACHE_CONTROL });
  },
};
