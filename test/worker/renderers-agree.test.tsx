// Every example page, with the data the worker loads for it (its page data, deferred values
// settled), rendered into verge's document by both of React's server builds: the Node build the
// worker uses and the edge build it used before (docs/decisions.md, "The worker bundle") write
// the same HTML, so the switch changes no page a visitor is sent.
import * as nodeServer from "react-dom/server";
import * as edgeServer from "react-dom/server.edge";
import { beforeAll, describe, expect, it } from "vitest";
import { app as product } from "../../src/app";
import { routes } from "../../src/app/routes";
import type { AppContext } from "../../src/server/context";
import { documentTree } from "../../src/server/document";
import { settledDeferred, isDeferredMarker } from "../../src/shared/await";
import { matchRoute } from "../../src/shared/match-route";
import type { PageData } from "../../src/shared/protocol";
import type { LayoutModule } from "../../src/shared/layouts";
import type { RouteModule } from "../../src/shared/route-module";
import { scriptSafeJson } from "../../src/shared/serialize";
import { manifest } from "./apps";
import { request } from "./html";
import { signUp } from "./sign-in-support";

/** The example's pages: every route with a page module and no params. */
const pages = routes
  .filter((route) => route.kind === "page" && !route.path.includes(":"))
  .map((route) => route.path);

const config = { ...product, manifest };
/** What documentTree reads of the request's context: the app, and the page's address. */
const contextFor = (path: string) =>
  ({
    get: (key: string) => (key === "app" ? config : undefined),
    req: { url: new URL(path, "http://localhost").href },
  }) as unknown as AppContext;

/** The page as the worker loads it for `cookie`'s visitor: its page data, deferred values settled. */
async function pageData(path: string, cookie: string): Promise<PageData> {
  const answer = await request(path, { headers: { "X-Page-Data": "1", Cookie: cookie } });
  return (await answer.json()) as PageData;
}

/** Each settled marker as the promise a render reads at once (as a resumed shell's are). */
function live(page: PageData): PageData {
  const data =
    typeof page.data === "object" && page.data !== null && !Array.isArray(page.data)
      ? Object.fromEntries(
          Object.entries(page.data).map(([key, value]) => [
            key,
            isDeferredMarker(value) && value.settled ? settledDeferred(key, value.settled) : value,
          ]),
        )
      : page.data;
  const visitor = page.visitor?.settled
    ? settledDeferred(page.visitor.$deferred, page.visitor.settled)
    : undefined;
  return { ...page, data, ...(visitor ? { visitor: visitor as unknown as PageData["visitor"] } : {}) };
}

/** `page`'s document (the tree the worker renders) as `server` writes it, whole. */
async function rendered(
  server: typeof nodeServer | typeof edgeServer,
  path: string,
  page: PageData,
): Promise<string> {
  const match = matchRoute(routes, path)!;
  const module = (await match.route.load()) as RouteModule;
  const layouts = await Promise.all(
    (match.route.layouts ?? []).map(async (definition) => ({
      id: definition.id,
      module: (await definition.load()) as LayoutModule,
    })),
  );
  const nonce = "bm9uY2Utb2YtdGhlLXRlc3Q";
  const tree = documentTree(contextFor(path), { module, layouts }, live(page), nonce, scriptSafeJson(page));
  try {
    const stream = await server.renderToReadableStream(tree, {
      nonce,
      bootstrapModules: [manifest.entry],
      onError: () => undefined,
    });
    await stream.allReady;
    return await new Response(stream).text();
  } catch (error) {
    // A page that throws as it renders (/errors/render): the worker then renders its error view.
    return `The shell failed: ${String(error)}`;
  }
}

describe.each([
  ["an anonymous visitor", false],
  ["a signed-in visitor", true],
])("every example page, for %s", (_, signedIn) => {
  let cookie = "";
  beforeAll(async () => {
    if (signedIn) cookie = (await signUp("Renderers agree")).cookie;
  });

  it.each(pages)("%s: React's Node and edge builds write the same HTML", async (path) => {
    const page = await pageData(path, cookie);
    if ("redirect" in page) return expect(signedIn, `${path} redirects only the anonymous`).toBe(false);
    // A loader that fails before anything renders (/errors/loader): its document is the server's
    // error page, which React does not write.
    if (!("route" in page))
      return expect((await request(path, { headers: { Cookie: cookie } })).status).toBe(500);
    const node = await rendered(nodeServer, path, page);
    const edge = await rendered(edgeServer, path, page);
    expect(node).toMatch(/<\/html>$|^The shell failed: Error: Render failed on purpose/);
    expect(node.length, path).toBe(edge.length);
    expect(node, path).toBe(edge);
  });
});
