// The benchmark's floor: the app's own pages (layout, component, loader: the same D1 rows)
// rendered into the same document markup with plain renderToReadableStream, from React's edge
// build as a team on Workers would import it, and nothing around them: no Hono, no middleware, no
// route matcher, no CSP nonces, no log lines, no error boundary. What the framework computes per
// request (stylesheet and module preload links, the head tags, the page data it embeds) is written
// here as plain elements.
import { renderToReadableStream } from "react-dom/server.edge";
import { routes } from "../../src/app/routes";
import Layout, { meta as productMeta } from "../../src/app/layout";
import manifest from "virtual:verge/manifest";
import {
  ACTION_HEADER,
  ANNOUNCER_ID,
  PAGE_DATA_HEADER,
  PAGE_DATA_SCRIPT_ID,
} from "../../src/shared/protocol";
import type { RouteModule } from "../../src/shared/route-module";
import type { RouteDefinition } from "../../src/shared/routing";
import { pageFiles } from "../../src/server/manifest";
import { requestContext } from "../../src/shared/middleware";
import { ITEM_ROUTES } from "./items";

/** The app's pages and the benchmark's /items (rendered every time: the floor has no cache). */
const byPath = new Map<string, RouteDefinition<RouteModule>>(
  [...routes, ...ITEM_ROUTES].map((route) => [route.path, route]),
);
/** The one escape an inline JSON script needs: nothing in it may close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

function titleOf(module: RouteModule, data: unknown): string {
  return typeof module.title === "function" ? module.title(data) : module.title;
}

/** The head tags the app sends for a page: its description over the product's, and its address. */
function headOf(module: RouteModule, data: unknown, url: URL, title: string) {
  const own = typeof module.meta === "function" ? module.meta(data) : module.meta;
  const description = own?.description ?? productMeta.description;
  const canonical = url.origin + url.pathname;
  return [
    { name: "description", content: description },
    { rel: "canonical", href: canonical },
    { property: "og:type", content: "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: canonical },
    { name: "twitter:card", content: "summary" },
  ];
}

async function load(module: RouteModule, request: Request, env: Env, ctx: ExecutionContext) {
  const url = new URL(request.url);
  return module.loader
    ? module.loader({ request, url, params: {}, env, ctx, context: requestContext() })
    : null;
}

/**
 * The per-visitor loader's data (the guestbook's form key, /shell/items' name), given to the page
 * as a plain value: <Await> renders it at once, so the floor renders the page whole, holes and all.
 */
async function loadVisitor(module: RouteModule, request: Request, env: Env, ctx: ExecutionContext) {
  const url = new URL(request.url);
  return module.visitorLoader?.({ request, url, params: {}, env, ctx, context: requestContext() });
}

async function render(module: RouteModule, data: unknown, url: URL, visitor?: unknown): Promise<Response> {
  const Page = module.default;
  const path = url.pathname;
  const title = titleOf(module, data);
  const head = headOf(module, data, url, title);
  // The stylesheets and module chunks a first load of the page fetches besides the entry, as the
  // app links and preloads them (worked out once per page module, as the app's are).
  const { css, preloads } = pageFiles(manifest, [module]);
  const page = { route: path, params: {}, data, title, head, build: manifest.build, status: 200 };
  const stream = await renderToReadableStream(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{page.title}</title>
        {head.map((tag) =>
          "rel" in tag ? <link key={tag.rel} {...tag} /> : <meta key={tag.name ?? tag.property} {...tag} />,
        )}
        <link rel="icon" href="data:," />
        <noscript>
          <style>{'div[hidden][id^="S:"]{display:block}'}</style>
        </noscript>
        {css.map((href) => (
          <link key={href} rel="stylesheet" href={href} precedence="default" />
        ))}
        {preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <Layout>
          <Page data={data} params={{}} visitor={visitor} />
        </Layout>
        <div id={ANNOUNCER_ID} className="visually-hidden" aria-live="assertive" aria-atomic="true" />
        <script
          type="application/json"
          id={PAGE_DATA_SCRIPT_ID}
          dangerouslySetInnerHTML={{ __html: scriptJson(page) }}
        />
      </body>
    </html>,
    { bootstrapModules: [manifest.entry] },
  );
  return new Response(stream, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/**
 * The floor's cache hit: a page under /cached/memory/ rendered once, then its bytes served from
 * the isolate as they are, with nothing looked up or restamped. What the app's hit of the same
 * page costs beyond it is the framework's; what it costs itself grows with the page (the bytes
 * the Worker sends).
 */
const kept = new Map<string, { body: Blob; type: string }>();

async function keptPage(path: string, render: () => Promise<Response>): Promise<Response> {
  let page = kept.get(path);
  if (!page) {
    const response = await render();
    page = { body: await response.blob(), type: response.headers.get("Content-Type") ?? "" };
    kept.set(path, page);
  }
  // A Blob: the runtime sends its bytes as they are, where one made from an ArrayBuffer would be
  // copied into a fresh allocation first.
  return new Response(page.body, { headers: { "Content-Type": page.type } });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const path = url.pathname;
    const route = byPath.get(path);
    if (!route) return new Response("Not found", { status: 404 });
    if (
      path.startsWith("/cached/memory/") &&
      request.method === "GET" &&
      !request.headers.has(PAGE_DATA_HEADER)
    ) {
      const module = await route.load();
      return keptPage(path, async () => render(module, await load(module, request, env, ctx), url));
    }
    const module = await route.load();
    if (request.method === "POST") return signAndReload(module, request, env, ctx);
    const [data, visitor] = await Promise.all([
      load(module, request, env, ctx),
      loadVisitor(module, request, env, ctx),
    ]);
    if (request.headers.has(PAGE_DATA_HEADER)) {
      const title = titleOf(module, data);
      const head = headOf(module, data, url, title);
      return Response.json({ route: path, params: {}, data, title, head, visitor });
    }
    return render(module, data, url, visitor);
  },
} satisfies ExportedHandler<Env>;

/** The action round trip at its barest: the page's action on the form's fields, then its data again. */
async function signAndReload(module: RouteModule, request: Request, env: Env, ctx: ExecutionContext) {
  const action = module.actions?.[request.headers.get(ACTION_HEADER) ?? ""];
  if (!action) return new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const fields: Record<string, string> = {};
  for (const [name, value] of await request.formData()) if (typeof value === "string") fields[name] ??= value;
  const result = await action({ request, url, params: {}, env, ctx, context: requestContext(), fields });
  const data = await load(module, new Request(url), env, ctx);
  const page = { route: url.pathname, params: {}, data, title: titleOf(module, data) };
  return Response.json({ ok: true, result, page });
}
