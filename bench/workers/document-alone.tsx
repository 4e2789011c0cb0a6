// The `document` target of `npm run bench:loop`: the app's own document for /items (its Root,
// nonce context, render options and page JSON) rendered by plain renderToReadableStream, with no
// Hono, middleware, routing or loader plumbing around it. Against `app` it shows what the runtime
// costs around the render; against `floor`, whether the app's markup itself costs more. Any path
// is /items (500 rows) but `/items-empty`, which has none, as the app's page of that name.
import { renderToReadableStream } from "react-dom/server";
import { Root } from "../../src/shared/root";
import { NonceContext } from "../../src/shared/nonce";
import { scriptSafeJson } from "../../src/shared/serialize";
import type { PageData } from "../../src/shared/protocol";
import type { AppDefinition } from "../../src/shared/route-module";
import type { ClientManifest } from "../../src/server/manifest";
import { items, Items } from "./items";

const nonce = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));

export function documentAlone(app: AppDefinition, manifest: ClientManifest) {
  const module = { default: Items, title: "Items" };
  return {
    async fetch(request: Request): Promise<Response> {
      const rows = new URL(request.url).pathname === "/items-empty" ? 0 : 500;
      const page: PageData = {
        route: "/items",
        params: {},
        data: { items: items(rows) },
        title: "Items",
        head: [
          { name: "description", content: "Items" },
          { rel: "canonical", href: "http://localhost/items" },
          { property: "og:type", content: "website" },
          { property: "og:title", content: "Items" },
          { name: "twitter:card", content: "summary" },
        ],
        build: manifest.build,
        status: 200,
      };
      const value = nonce();
      const tree = (
        <NonceContext value={value}>
          <Root app={app} page={page} module={module as never} pageJson={scriptSafeJson(page)} />
        </NonceContext>
      );
      const stream = await renderToReadableStream(tree, {
        nonce: value,
        bootstrapModules: [manifest.entry],
        signal: new AbortController().signal,
        onError: () => undefined,
      });
      return new Response(stream, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
  };
}
