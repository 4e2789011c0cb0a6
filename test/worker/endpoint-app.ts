// A small app of endpoints for the endpoint tests (test/worker/endpoints.test.ts and
// test/hostile/endpoints-*.worker.test.ts): one per behaviour, with a page above one of them.
import { basicAuth } from "hono/basic-auth";
import { cors } from "hono/cors";
import { endpoint, type EndpointArgs } from "../../src/shared/endpoint";
import { page } from "../../src/shared/route-module";
import { setCookie } from "../../src/shared/cookies";
import { recordedApp } from "./apps";

let calls = 0;
/** How many times an unsafe method's handler ran: a refusal must leave it unchanged. */
export const handled = { count: 0 };
/** A path of its own (a query the cache keys on), so no test reads another's entry. */
export const fresh = (() => {
  let n = 0;
  return (path: string) => `${path}?test=${Date.now()}-${++n}`;
})();

export const { send } = recordedApp([
  page("/page", async () => ({ default: () => null, title: "A page" })),
  endpoint("/things/:id", async () => ({
    GET: ({ params, url }: EndpointArgs<"/things/:id">) =>
      Response.json({ id: params.id, q: url.searchParams.get("q") }),
    POST: async ({ request, params }: EndpointArgs<"/things/:id">) =>
      ++handled.count && Response.json({ id: params.id, got: await request.text() }, { status: 201 }),
    DELETE: () => ++handled.count && new Response(null, { status: 204 }),
  })),
  endpoint("/posts-only", async () => ({
    POST: async ({ request }: EndpointArgs) =>
      ++handled.count && new Response(`${(await request.arrayBuffer()).byteLength}`),
  })),
  endpoint("/fails", async () => ({
    GET: () => {
      throw new Error("secret database password in this message");
    },
  })),
  endpoint("/webhook", async () => ({
    crossSite: true,
    POST: async ({ request }: EndpointArgs) => new Response(`took ${await request.text()}`),
  })),
  endpoint("/counted", async () => ({
    cache: { maxAge: 60, query: ["test", "page"] },
    GET: ({ request, url }: EndpointArgs) =>
      Response.json({
        n: ++calls,
        url: url.href,
        cookie: request.headers.get("Cookie"),
      }),
  })),
  endpoint("/cookie-cached", async () => ({
    cache: { maxAge: 60, query: ["test"] },
    GET: ({ url }: EndpointArgs) =>
      new Response(`for ${url.search}`, {
        headers: { "Set-Cookie": setCookie("visitor", crypto.randomUUID().slice(0, 8)) },
      }),
  })),
  endpoint("/guarded", async () => ({
    use: [cors({ origin: "https://app.example" }), basicAuth({ username: "ops", password: "s3cret" })],
    GET: () => new Response("inside"),
  })),
  endpoint("/page-first", async () => ({ GET: () => new Response("endpoint") })),
]);
