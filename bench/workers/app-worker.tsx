// The app as the benchmark runs it: the deployed worker (src/worker.ts) with the benchmark's item
// pages added to the product's routes (items.tsx), and, for keys under /cached/memory/ and
// /shell/memory/, this location's cache as a Map in the isolate: a lookup there costs the Worker
// what an edge lookup does (its own code only), where Miniflare's Cache API runs two Workers and
// a SQLite store in the Worker's process.
import { createApp } from "../../src/server/create-app";
import { reportToSentry } from "../../src/server/sentry-reporter";
import manifest from "virtual:verge/manifest";
import { app } from "../../src/app";
import { ITEM_ROUTES } from "./items";
import { page } from "../../src/shared";

/**
 * Entries kept in the isolate: each stored body as a Blob, served as a fresh Response over it.
 * Like the edge's, its body is the runtime's own: a Response made from an ArrayBuffer copies it
 * into a fresh allocation on every hit, a cost the edge's lookup does not put on the Worker.
 */
function memoryCache(): Pick<Cache, "match" | "put" | "delete"> {
  const entries = new Map<string, { body: Blob; init: ResponseInit }>();
  return {
    async match(key) {
      const entry = entries.get((key as Request).url);
      return entry ? new Response(entry.body, entry.init) : undefined;
    },
    async put(key, response) {
      const init = { status: response.status, headers: [...response.headers] };
      entries.set((key as Request).url, { body: await response.blob(), init });
    },
    async delete(key) {
      return entries.delete((key as Request).url);
    },
  };
}

/** The location's cache, with the keys of /cached/memory/ and /shell/memory/ pages kept in the isolate. */
function benchCache(edge: Cache): Cache {
  const memory = memoryCache();
  const inMemory = (key: RequestInfo | URL) =>
    /^\/(cached|shell)\/memory\//.test(new URL(key instanceof Request ? key.url : key).pathname);
  return Object.assign(Object.create(edge) as Cache, {
    match: (key: Request, options?: CacheQueryOptions) =>
      inMemory(key) ? memory.match(key) : edge.match(key, options),
    put: (key: Request, response: Response) =>
      inMemory(key) ? memory.put(key, response) : edge.put(key, response),
    delete: (key: Request, options?: CacheQueryOptions) =>
      inMemory(key) ? memory.delete(key) : edge.delete(key, options),
  });
}

const storage = caches as unknown as { default: Cache };
Object.defineProperty(caches, "default", { value: benchCache(storage.default) });

const worker = createApp({
  ...app,
  // The guestbook again where its shell is kept in the isolate: a shell hit without Miniflare's lookup.
  routes: [
    ...app.routes,
    ...ITEM_ROUTES,
    page("/shell/memory/guestbook", () => import("../../src/app/pages/guestbook")),
  ],
  manifest,
  reportError: reportToSentry,
});

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
