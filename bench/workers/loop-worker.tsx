// The in-isolate loop of `npm run bench:loop` (bench/scripts/loop.mjs): one request runs the app's
// or the floor's fetch `n` times on the same page and reads every body, so the runtime's process
// CPU over it is the handler's own cost, with no HTTP, entry Worker or asset router around it.
// Built beside the app by bench/vite.config.ts, with the app's flags; run with its bindings.
import * as workers from "cloudflare:workers";
import { createApp } from "../../src/server/create-app";
import { app } from "../../src/app";
import manifest from "virtual:verge/manifest";
import floor from "./floor-worker";
import { edgeCache } from "../../src/server/cache-entry";
import { ITEM_ROUTES } from "./items";
import { documentAlone } from "./document-alone";
import { D1_BOOKMARK_HEADER, PAGE_DATA_HEADER, PAGE_DATA_PARAM } from "../../src/shared/protocol";
import { sealBookmark } from "../../src/server/bookmark-seal";
import { createSession, nowSeconds } from "../../src/server/sessions";
import { answeringEnv, recordingEnv, replay, type Recorded } from "./d1-replay";
import { streamCensus } from "./stream-census";

/**
 * A bookmark makes the app render a page it would serve from its edge cache (the floor always
 * renders): sealed, as verge issues them, under the secret the benchmark gives the Worker.
 */
const render = async (env: Env) => ({
  [D1_BOOKMARK_HEADER]: await sealBookmark(
    env.D1_BOOKMARK_SECRET,
    "00000000-00000000-00000000-00000000000000000000000000000000",
  ),
});

/**
 * `signed-in=1`: a visitor with a session, as the product's session middleware reads it: an
 * account and a session made once per isolate in the benchmark's D1, its cookie on every call.
 */
let signedIn: Promise<Record<string, string>> | undefined;
const ACCOUNT = "bench-account";
const account = (env: Env) =>
  env.DB.prepare("INSERT OR IGNORE INTO accounts (id, display_name) VALUES (?, ?)")
    .bind(ACCOUNT, "Bench visitor")
    .run();
const session = (env: Env) =>
  (signedIn ??= (async () => {
    await account(env);
    // The Set-Cookie's first pair is the cookie a browser sends back.
    const { cookie } = await createSession(env.DB, ACCOUNT, nowSeconds());
    return { Cookie: cookie.split(";")[0]! };
  })());

/**
 * `seed=N`: the guestbook with N entries, once per isolate, as `npm run bench` signs it (its
 * names and messages), every fourth by the signed-in visitor: their page shows delete buttons.
 */
let seeded: Promise<unknown> | undefined;
const seed = (env: Env, count: number) =>
  (seeded ??= account(env).then(() =>
    env.DB.batch(
      Array.from({ length: count }, (_, i) =>
        env.DB.prepare(
          // OR IGNORE: a state kept from an earlier run (BENCH_STATE) has them already.
          "INSERT OR IGNORE INTO guestbook (name, message, idempotency_key, author_id) VALUES (?, ?, ?, ?)",
        ).bind(
          `Bench visitor ${i + 1}`,
          `Entry ${i + 1}: a message of ordinary length, <b>with markup</b> that must stay text.`,
          `bench-seed-${i}`,
          i % 4 === 0 ? ACCOUNT : null,
        ),
      ),
    ),
  ));

/** Each target's recorded D1 calls (`d1=record`), by the call's parameters. */
const recorded = new Map<string, Recorded[]>();

interface Target {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response>;
}

/** The product's pages and the benchmark's /items (items.tsx). */
const routes = [...app.routes, ...ITEM_ROUTES];

const TARGETS: Record<string, Target> = {
  /**
   * The worker as deployed, minus Sentry (nothing fails here): the log line written to stdout,
   * phases entered as spans through the runtime's tracing (which samples nothing locally).
   */
  app: createApp({ ...app, routes, manifest, reportError: () => {}, tracing: workers.tracing }),
  /** The same with the log line built but not written: what the write itself costs. */
  "app-quiet": createApp({ ...app, routes, manifest, reportError: () => {}, log: () => {} }),
  floor: floor as Target,
  /** /items' document as the app renders it, by renderToReadableStream alone (/items-empty: no rows). */
  document: documentAlone(app, manifest),
};

/**
 * `cache=memory`: this location's cache as a Map in the isolate, for `--memory-cache` only. It
 * shows what a hit costs the Worker's own code; Miniflare's Cache API is two more Workers and a
 * SQLite store in the Worker's process, which on the edge are not the Worker's CPU.
 */
class MemoryCache {
  // Blobs, as in app-worker.tsx: a Response over one is not a copy of it.
  entries = new Map<string, { body: Blob; init: ResponseInit }>();
  async match(key: Request) {
    const e = this.entries.get(key.url);
    return e ? new Response(e.body, e.init) : undefined;
  }
  async put(key: Request, response: Response) {
    const init = { status: response.status, headers: [...response.headers] };
    this.entries.set(key.url, { body: await response.blob(), init });
  }
  async delete(key: Request) {
    return this.entries.delete(key.url);
  }
}

/**
 * `encode=fast`: TextEncoder.encode with a JavaScript path for short ASCII strings, for this
 * call's loop only. React's edge build encodes each string it writes on its own, and in workerd
 * each encoding is a native call and an allocation outside the heap: this shows what that costs a
 * page (BENCHMARKS.md). An experiment, never the app's: the runtime's own is put back after the
 * loop, and loop.mjs sends one call at a time, so no other target's calls run with it.
 */
const nativeEncode = TextEncoder.prototype.encode;
function fastEncode(this: TextEncoder, text = ""): Uint8Array<ArrayBuffer> {
  if (typeof text !== "string" || text.length > 64) return nativeEncode.call(this, text);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return nativeEncode.call(this, text);
    bytes[i] = code;
  }
  return bytes;
}

export default {
  async fetch(request, env, ctx) {
    const params = new URL(request.url).searchParams;
    const target = TARGETS[params.get("target") ?? ""];
    if (!target) return new Response(`target: one of ${Object.keys(TARGETS).join(", ")}`, { status: 400 });
    const n = Number(params.get("n") ?? 1);
    const page = new URL(params.get("path") ?? "/", "http://localhost");
    // data=1: the page's data, asked for as the client asks (the marker header and parameter).
    const data = params.get("data") === "1";
    if (data) page.searchParams.set(PAGE_DATA_PARAM, "1");
    // hit=1: leave the bookmark out, so a page that opts into the edge cache is served from it;
    // bookmark=0: leave it out of a page the benchmark asks for without one (/items).
    const bookmark = params.get("hit") === "1" || params.get("bookmark") === "0" ? {} : await render(env);
    if (params.get("cache") === "memory" && !(edgeCache() instanceof MemoryCache))
      Object.defineProperty(caches, "default", { value: new MemoryCache() });
    if (params.has("seed")) await seed(env, Number(params.get("seed")));
    const visitor = params.get("signed-in") === "1" ? await session(env) : {};
    const headers: HeadersInit = { ...(data ? { [PAGE_DATA_HEADER]: "1" } : {}), ...bookmark, ...visitor };
    // d1=record: one call, its D1 calls kept for d1=replay, which runs only them, `n` times, and
    // for d1=memory, whose calls D1 answers from them, in the isolate.
    const call = new URLSearchParams(params);
    call.delete("d1");
    call.delete("n");
    call.delete("writes");
    const key = String(call);
    if (params.get("d1") === "replay") {
      const calls = recorded.get(key);
      if (!calls) return new Response("d1=replay: record this call first (d1=record)", { status: 400 });
      for (let i = 0; i < n; i++) await replay(env.DB, calls);
      return Response.json({ bytesPerRequest: 0, failed: 0, d1Calls: calls.length });
    }
    const calls: Recorded[] = [];
    if (params.get("d1") === "record") recorded.set(key, calls);
    let callEnv = params.get("d1") === "record" ? recordingEnv(env, calls) : env;
    if (params.get("d1") === "memory") {
      const log = recorded.get(key);
      if (!log) return new Response("d1=memory: record this call first (d1=record)", { status: 400 });
      callEnv = await answeringEnv(env, log);
    }
    // writes=1: one call, its streams and writes counted (stream-census.ts), instead of timing.
    if (params.get("writes") === "1")
      return Response.json(
        await streamCensus(async () => target.fetch(new Request(page, { headers }), callEnv, ctx)),
      );
    let bytes = 0;
    let failed = 0;
    let firstFailure: string | undefined;
    if (params.get("encode") === "fast") TextEncoder.prototype.encode = fastEncode;
    try {
      for (let i = 0; i < n; i++) {
        const response = await target.fetch(new Request(page, { headers }), callEnv, ctx);
        const body = await response.arrayBuffer();
        bytes += body.byteLength;
        if (!response.ok) {
          failed++;
          firstFailure ??= `${response.status}: ${new TextDecoder().decode(body).slice(0, 300)}`;
        }
      }
    } finally {
      TextEncoder.prototype.encode = nativeEncode;
    }
    // A target that fails is cheap: loop.mjs refuses to time it.
    return Response.json({ bytesPerRequest: bytes / n, failed, firstFailure, d1Calls: calls.length / n });
  },
} satisfies ExportedHandler<Env>;
