// The edge cache of pages that opt in (a page module's `cache`): their HTML and page data are
// served from this location's Cache API, fresh or stale-while-revalidate, each document hit with
// this response's own nonce (cache-entry.ts); misses are rendered, streamed and then stored.
import { getCookie } from "hono/cookie";
import { D1_BOOKMARK_COOKIE, D1_BOOKMARK_HEADER, STATUS } from "../shared/protocol";
import { matchRoute } from "../shared/routing";
import type { CachePolicy, RouteModule } from "../shared/route-module";
import type { AppContext, CacheState } from "./context";
import { waitUntil } from "./capture";
import { answerHeaders, requestNonce } from "./headers";
import { logWhenSettled } from "./logger";
import {
  CACHED_KINDS,
  cacheKey,
  copyOnRead,
  edgeCache,
  findEntry,
  servedEntry,
  storeEntry,
  type CachedKind,
} from "./cache-entry";

function policyOf(module: RouteModule | null): Required<CachePolicy> | null {
  const { maxAge = 0, staleWhileRevalidate = 0 } = module?.cache ?? {};
  return maxAge > 0 ? { maxAge, staleWhileRevalidate: Math.max(0, staleWhileRevalidate) } : null;
}

/** A visitor who has just written (a D1 bookmark) reads past the cache, so they see their write. */
function bookmarked(c: AppContext): boolean {
  return c.req.raw.headers.has(D1_BOOKMARK_HEADER) || getCookie(c, D1_BOOKMARK_COOKIE) !== undefined;
}

/** Answers made for one visitor whatever their status: a loader's redirect as page data (200 JSON). */
const notForTheCache = new WeakSet<Response>();

/** Marks `response` as never to be stored, and returns it. */
export function uncacheable(response: Response): Response {
  notForTheCache.add(response);
  return response;
}

const storable = (response: Response) =>
  response.status === STATUS.ok && response.body !== null && !notForTheCache.has(response);

function note(c: AppContext, state: CacheState): void {
  const log = c.get("log");
  log.fields = { ...log.fields, cache: state };
}

/**
 * The answer of `kind` for the page at `url`. Pages without a cache policy: what `produce` makes.
 * The others: a fresh entry, or a stale one (refreshed in the background), or else what `produce`
 * makes, stored once the visitor has had all of it.
 */
export async function cachedAnswer(
  c: AppContext,
  kind: CachedKind,
  url: URL,
  produce: () => Promise<Response>,
): Promise<Response> {
  const match = matchRoute(c.get("app").routes, url.pathname);
  const module = match ? await match.route.load() : null;
  const policy = policyOf(module);
  if (!match || !module || !policy) return produce();
  // Under `npm run dev` a page shows the code as it is now: an edit may change no build id.
  if (c.env.DEV_SERVER || bookmarked(c)) {
    note(c, "bypass");
    return produce();
  }
  c.get("log").route = match.route.path;
  const key = cacheKey(url, kind, c.get("app").manifest.build);
  const found = await findEntry(key, kind);
  if (found && found.age <= policy.maxAge + policy.staleWhileRevalidate) {
    const stale = found.age > policy.maxAge;
    note(c, stale ? "stale" : "hit");
    if (stale) refreshLater(c, key, kind, policy, produce);
    return await servedEntry(found.entry, requestNonce(c), answerHeaders(kind, module));
  }
  await found?.entry.body?.cancel();
  note(c, "miss");
  const response = await produce();
  // A HEAD answer's body is never read: nothing to store from it.
  if (c.req.method === "HEAD" || !storable(response)) return response;
  const { body, complete } = copyOnRead(response.body!);
  const stored = complete.then((chunks) => chunks && store(c, key, kind, policy, response, new Blob(chunks)));
  // One waitUntil for both: the log line is written once the copy is stored.
  const log = c.get("log");
  logWhenSettled(log, Promise.all([log.pending, stored.catch(() => {})]));
  return new Response(body, response);
}

/**
 * Stores a whole answer unless its request captured an error (a failed section, a deferred
 * value's digest: a page like that is one visitor's) or the visitor left.
 */
async function store(
  c: AppContext,
  key: Request,
  kind: CachedKind,
  policy: Required<CachePolicy>,
  response: Response,
  body: Blob,
): Promise<void> {
  if (c.get("log").errors.length > 0 || c.req.raw.signal.aborted) return;
  const type = response.headers.get("Content-Type") ?? "";
  // The entry lives through its stale window; its stored time tells which part it is in.
  const ttl = policy.maxAge + policy.staleWhileRevalidate;
  await storeEntry(key, kind, { body, type, nonce: requestNonce(c) }, ttl);
}

/** Keys this isolate is refreshing: one stale hit refreshes an entry; the others are served stale. */
const refreshing = new Set<string>();

function refreshLater(
  c: AppContext,
  key: Request,
  kind: CachedKind,
  policy: Required<CachePolicy>,
  produce: () => Promise<Response>,
): void {
  if (refreshing.has(key.url)) return;
  refreshing.add(key.url);
  // Started on the next task, once this answer's log line is written: the refresh neither holds
  // the line nor adds to it. What it captures still goes to the reporting hook.
  const refresh = new Promise((resolve) => setTimeout(resolve, 0))
    .then(produce)
    .then(async (response) => {
      if (!storable(response)) return void (await response.body?.cancel());
      await store(c, key, kind, policy, response, await response.blob());
    })
    .catch((error: unknown) => void c.get("capture")(error))
    .finally(() => refreshing.delete(key.url));
  waitUntil(c, refresh);
}

/** After a successful action: this location forgets the page's entries, HTML and page data. */
export async function forgetPage(c: AppContext, url: URL, module: RouteModule): Promise<void> {
  if (!policyOf(module)) return;
  const build = c.get("app").manifest.build;
  // A failed delete must not fail the action: its mutation is done.
  const forget = (kind: CachedKind) =>
    edgeCache()
      .delete(cacheKey(url, kind, build))
      .catch(() => false);
  await Promise.all(CACHED_KINDS.map(forget));
}
