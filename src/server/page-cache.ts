// The edge cache of pages that opt in (a page module's `cache`): their HTML and page data are
// served from this location's Cache API, fresh or stale-while-revalidate, each document hit with
// this response's own nonce (cache-entry.ts); misses are rendered under a nonce no one is sent,
// streamed to their visitor with the visitor's own, and stored as rendered.
import { keyMark } from "../shared/form-keys";
import { STATUS } from "../shared/protocol";
import type { RouteModule } from "../shared/route-module";
import { cachedUrl, policyOf, type Policy } from "./cache-policy";
import type { AppContext, CacheState } from "./context";
import { waitUntil } from "./capture";
import { visitorBookmark } from "./d1-session";
import type { ResolvedRoute } from "./load-page";
import { answerHeaders, generateNonce, renderNonce, requestNonce } from "./headers";
import { streamSplicer } from "./nonce-splice";
import { logField, logWhenSettled } from "./logger";
import { timed } from "./timings";
import { underDevServer } from "./dev";
import {
  CACHED_KINDS,
  cacheGeneration,
  cacheKey,
  copyOnRead,
  edgeCache,
  findEntry,
  forgottenSince,
  markForgotten,
  servedEntry,
  storeEntry,
  type CachedKind,
} from "./cache-entry";

export const generation = (c: AppContext) => cacheGeneration(c.get("app").manifest.build, c.env);

/** A visitor who has just written (a D1 bookmark) reads past the cache, so they see their write. */
export const bookmarked = (c: AppContext) => visitorBookmark(c) !== undefined;

/** Answers made for one visitor whatever their status: a loader's redirect as page data (200 JSON). */
const notForTheCache = new WeakSet<Response>();

/** Marks `response` as never to be stored, and returns it. */
export function uncacheable(response: Response): Response {
  notForTheCache.add(response);
  return response;
}

/** Headers an answer's entry keeps besides the usual (a shell's parts: shell.tsx). */
const entryHeaders = new WeakMap<Response, Record<string, string>>();

/** Marks `response` to be stored with `headers` too, and returns it. */
export function withEntryHeaders(response: Response, headers: Record<string, string>): Response {
  entryHeaders.set(response, headers);
  return response;
}

export const storable = (response: Response) =>
  response.status === STATUS.ok && !notForTheCache.has(response);

export const note = (c: AppContext, state: CacheState) => logField(c, "cache", state);

/**
 * The answer of `kind` for the page at `url`. Pages without a cache policy: what `produce` makes.
 * The others: a fresh entry, or a stale one (refreshed in the background), or else what `produce`
 * makes, stored once the visitor has had all of it.
 */
export async function cachedAnswer(
  c: AppContext,
  kind: CachedKind,
  url: URL,
  route: ResolvedRoute | null,
  produce: (route: ResolvedRoute | null) => Promise<Response>,
): Promise<Response> {
  const module = route?.module ?? null;
  const policy = policyOf(module);
  const render = () => produce(route);
  if (!policy) return render();
  if (underDevServer(c) || bookmarked(c)) {
    note(c, "bypass");
    return render();
  }
  // Kept under the parameters the page reads: `/?utm_source=x` is `/`.
  const keptUrl = cachedUrl(url, policy);
  const page: CachedPage = { url: keptUrl, kind, policy, key: cacheKey(keptUrl, kind, generation(c)) };
  const found = await timed(c, "cache", () => findEntry(page.key, kind));
  if (found && found.age <= lifetime(policy)) {
    const stale = found.age > policy.maxAge;
    const served = await servedEntry(found.entry, requestNonce(c), answerHeaders(kind, module));
    if (served) {
      note(c, stale ? "stale" : "hit");
      if (stale) refreshLater(c, page, render);
      return served;
    }
  } else await found?.entry.body?.cancel();
  note(c, "miss");
  const started = renderStart();
  // A document that may be stored is rendered under a nonce of its own: what the visitor who
  // fills the cache plants with the nonce they are sent stays inert for every later visitor.
  if (kind === "html") c.set("renderNonce", generateNonce());
  const response = await render();
  // A HEAD answer's body is never read: nothing to store from it.
  const kept = c.req.method !== "HEAD" && storable(response);
  if (response.body === null || (kind === "data" && !kept)) return response;
  const pass = kind === "html" ? streamSplicer(renderNonce(c), requestNonce(c)) : undefined;
  const { body, complete } = copyOnRead(response.body, pass);
  if (kept) {
    const stored = complete.then((chunks) => chunks && store(c, page, response, new Blob(chunks), started));
    // One waitUntil for both: the log line is written once the copy is stored.
    const log = c.get("log");
    logWhenSettled(log, Promise.all([log.pending, stored.catch(() => {})]));
  }
  return new Response(body, response);
}

/** One page's entry of one kind: where it is kept and for how long. */
export interface CachedPage {
  url: URL;
  kind: CachedKind;
  policy: Policy;
  key: Request;
}

/** How long a page's entries live: through their stale window (the stored time tells which part). */
export const lifetime = ({ maxAge, staleWhileRevalidate }: Policy) => maxAge + staleWhileRevalidate;

/** When a render began: the time (ms), and the form keys issued before it (keyMark). */
export type Started = ReturnType<typeof renderStart>;
export const renderStart = () => ({ at: Date.now(), keys: keyMark() });

/**
 * Stores a whole answer, rendered from `started` on, unless its request captured an error (a
 * failed section, a deferred value's digest: a page like that is one visitor's) or the visitor
 * left. An action that forgot the page meanwhile (forgetPage) makes it out of date: it is stored,
 * then checked, then dropped, so that either this check sees the action's mark or the action's
 * delete comes after this store.
 */
export async function store(
  c: AppContext,
  page: CachedPage,
  response: Response,
  body: Blob,
  started: Started,
) {
  if (c.get("log").errors.length > 0 || c.req.raw.signal.aborted) return;
  const type = response.headers.get("Content-Type") ?? "";
  const headers = entryHeaders.get(response);
  const answer = { body, type, nonce: renderNonce(c), keysFrom: started.keys, headers };
  if (!(await storeEntry(page.key, page.kind, answer, lifetime(page.policy)))) return;
  if (await forgottenSince(page.url, generation(c), started.at)) {
    await edgeCache()
      .delete(page.key)
      .catch(() => false);
  }
}

/** Keys this isolate is refreshing: one stale hit refreshes an entry; the others are served stale. */
const refreshing = new Set<string>();

export function refreshLater(c: AppContext, page: CachedPage, produce: () => Promise<Response>): void {
  const { url } = page.key;
  if (refreshing.has(url)) return;
  refreshing.add(url);
  // Started on the next task, once this answer's log line is written: the refresh neither holds
  // the line nor adds to it. What it captures still goes to the reporting hook.
  const refresh = new Promise((resolve) => setTimeout(resolve, 0))
    .then(async () => {
      // Rendered with a nonce of its own: the stale hit's visitor has this request's in its CSP
      // header, and must not be able to plant it in content the refresh stores.
      c.set("renderNonce", generateNonce());
      const started = renderStart();
      const response = await produce();
      if (!storable(response) || response.body === null) return void (await response.body?.cancel());
      await store(c, page, response, await response.blob(), started);
    })
    .catch((error: unknown) => void c.get("capture")(error))
    .finally(() => refreshing.delete(url));
  waitUntil(c, refresh);
}

/**
 * After a successful action: this location forgets the page's entries, HTML and page data. The
 * mark comes first, so a render still running (begun before the action) does not keep its copy.
 */
export async function forgetPage(c: AppContext, posted: URL, module: RouteModule): Promise<void> {
  const policy = policyOf(module);
  if (!policy) return;
  // Posted with parameters the page does not read (`/?utm_source=x`): it is still that page.
  const url = cachedUrl(posted, policy);
  const current = generation(c);
  // A failed mark or delete must not fail the action: its mutation is done.
  await markForgotten(url, current, lifetime(policy)).catch(() => {});
  const forget = (kind: CachedKind) =>
    edgeCache()
      .delete(cacheKey(url, kind, current))
      .catch(() => false);
  await Promise.all(CACHED_KINDS.map(forget));
}
