// The edge cache of pages that opt in (a page module's `cache`): one path for every kind of entry
// (a whole document, page data, a stored shell: each says how it is sent and made, EntryKind).
// Entries are served from this location's Cache API, fresh or stale-while-revalidate; misses are
// rendered under a nonce no one is sent, sent to their visitor with the visitor's own, and stored
// as rendered (cache-entry.ts).
import { keyMark } from "../shared/form-keys";
import { STATUS } from "../shared/protocol";
import type { RouteModule } from "../shared/route-module";
import { cachedUrl, policyOf, type Policy } from "./cache-policy";
import type { AppContext } from "./context";
import { waitUntil } from "./capture";
import { visitorBookmark } from "./d1-session";
import type { ResolvedRoute } from "./load-page";
import { answerHeaders, generateNonce, requestNonce } from "./headers";
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
  type StoredAnswer,
} from "./cache-entry";

/** A render, as the cache takes it: the visitor's answer, and what may be stored of it. */
export interface Rendered {
  /**
   * The visitor's answer, under this request's nonce, and (with `keep`) the entry to store once
   * they have had it, or null when this render may not be stored.
   */
  send(keep: boolean): { answer: Response; entry: Promise<StoredAnswer | null> | null };
  /** The entry to store, for a refresh no visitor waits on; null when it may not be stored. */
  entry(): Promise<StoredAnswer | null>;
}

/** One kind of a page's entry: how a stored one is sent, and how a new one is made. */
export interface EntryKind {
  /** Which of the page's entries it is (its key and stored format). */
  kind: CachedKind;
  /** What the log line says when a fresh entry is served. */
  fresh: "hit" | "shell";
  /** A found entry as this request's answer, or null if it cannot be one: the page is made anew. */
  served(entry: Response, key: Request): Promise<Response | null>;
  /** The page rendered under `nonce`: the response's own, or one no visitor is sent. */
  render(nonce: string): Promise<Rendered>;
}

const generation = (c: AppContext) => cacheGeneration(c.get("app").manifest.build, c.env);

/**
 * The answer at `url` from `entries`. Pages without a cache policy, a visitor who has just
 * written (a D1 bookmark: they read past the cache to see their write) and `vite dev`: what
 * `entries` renders. The others: a fresh entry, or a stale one (refreshed in the background), or
 * else a new render, stored once the visitor has had all of it.
 */
export async function cachedEntry(
  c: AppContext,
  url: URL,
  module: RouteModule | null,
  entries: EntryKind,
): Promise<Response> {
  const policy = policyOf(module);
  // A middleware that set a cookie before the answer was made: this answer is this visitor's.
  const setsCookie = policy !== null && c.get("answerHeaders")?.has("Set-Cookie") === true;
  if (setsCookie) logField(c, "cacheSkip", "set-cookie");
  const bypass = policy && (underDevServer(c) || bookmarked(c) || setsCookie);
  if (bypass) logField(c, "cache", "bypass");
  if (!policy || bypass) return (await entries.render(requestNonce(c))).send(false).answer;
  // Kept under the parameters the page reads: `/?utm_source=x` is `/`.
  const keptUrl = cachedUrl(url, policy);
  const { kind } = entries;
  const page: CachedPage = { url: keptUrl, kind, policy, key: cacheKey(keptUrl, kind, generation(c)) };
  const found = await timed(c, "cache", () => findEntry(page.key, kind));
  if (found && found.age <= lifetime(policy)) {
    const stale = found.age > policy.maxAge;
    const served = await entries.served(found.entry, page.key);
    if (served) {
      logField(c, "cache", stale ? "stale" : entries.fresh);
      if (stale) refreshLater(c, page, entries);
      return served;
    }
  } else await found?.entry.body?.cancel();
  logField(c, "cache", "miss");
  const started = renderStart();
  // Rendered under a nonce of its own: what the visitor who fills the cache plants with the nonce
  // they are sent stays inert for every later visitor.
  const nonce = generateNonce();
  // A HEAD answer's body is never read: nothing to store from it.
  const { answer, entry } = (await entries.render(nonce)).send(c.req.method !== "HEAD");
  if (entry) {
    const stored = entry.then((kept) => kept && store(c, page, kept, nonce, started));
    // One waitUntil for both: the log line is written once the copy is stored.
    const log = c.get("log");
    logWhenSettled(log, Promise.all([log.pending, stored.catch(() => {})]));
  }
  return answer;
}

/** The whole answer of `kind` (a document, page data) that `produce` makes, cached as above. */
export function cachedAnswer(
  c: AppContext,
  kind: CachedKind,
  url: URL,
  route: ResolvedRoute | null,
  produce: (route: ResolvedRoute | null, nonce: string) => Promise<Response>,
): Promise<Response> {
  const module = route?.module ?? null;
  return cachedEntry(c, url, module, {
    kind,
    fresh: "hit",
    served: (entry) => servedEntry(entry, requestNonce(c), answerHeaders(kind, module)),
    render: async (nonce) => wholeRender(c, kind, nonce, await produce(route, nonce)),
  });
}

/** A whole answer rendered under `nonce`: sent with the visitor's nonce, stored as rendered. */
function wholeRender(c: AppContext, kind: CachedKind, nonce: string, response: Response): Rendered {
  // A cookie is one visitor's: an answer that sets one goes to its visitor, and no one else.
  const cookie = response.headers.has("Set-Cookie");
  if (cookie) logField(c, "cacheSkip", "set-cookie");
  const kept =
    response.status === STATUS.ok && !notForTheCache.has(response) && response.body !== null && !cookie;
  const type = response.headers.get("Content-Type") ?? "";
  return {
    send(keep) {
      const own = requestNonce(c);
      const plain = kind !== "html" || nonce === own;
      if (response.body === null || (plain && !(keep && kept))) return { answer: response, entry: null };
      const { body, complete } = copyOnRead(response.body, plain ? undefined : streamSplicer(nonce, own));
      const entry =
        keep && kept ? complete.then((chunks) => chunks && { body: new Blob(chunks), type }) : null;
      return { answer: new Response(body, response), entry };
    },
    async entry() {
      if (kept) return { body: await response.blob(), type };
      await response.body?.cancel();
      return null;
    },
  };
}

/** A visitor who has just written (a D1 bookmark) reads past the cache, so they see their write. */
const bookmarked = (c: AppContext) => visitorBookmark(c) !== undefined;

/** Answers made for one visitor whatever their status: a loader's redirect as page data (200 JSON). */
const notForTheCache = new WeakSet<Response>();

/** Marks `response` as never to be stored, and returns it. */
export function uncacheable(response: Response): Response {
  notForTheCache.add(response);
  return response;
}

/** One page's entry of one kind: where it is kept and for how long. */
interface CachedPage {
  url: URL;
  kind: CachedKind;
  policy: Policy;
  key: Request;
}

/** How long a page's entries live: through their stale window (the stored time tells which part). */
const lifetime = ({ maxAge, staleWhileRevalidate }: Policy) => maxAge + staleWhileRevalidate;

/** When a render began: the time (ms), and the form keys issued before it (keyMark). */
type Started = ReturnType<typeof renderStart>;
const renderStart = () => ({ at: Date.now(), keys: keyMark() });

/**
 * Stores an entry rendered under `nonce` from `started` on, unless its request captured an error
 * (a failed section, a deferred value's digest: a page like that is one visitor's) or the visitor
 * left. An action that forgot the page meanwhile (forgetPage) makes it out of date: it is stored,
 * then checked, then dropped, so that either this check sees the action's mark or the action's
 * delete comes after this store.
 */
async function store(c: AppContext, page: CachedPage, entry: StoredAnswer, nonce: string, started: Started) {
  if (c.get("log").errors.length > 0 || c.req.raw.signal.aborted) return;
  const answer = { ...entry, nonce, keysFrom: started.keys };
  if (!(await storeEntry(page.key, page.kind, answer, lifetime(page.policy)))) return;
  if (await forgottenSince(page.url, generation(c), started.at)) {
    await edgeCache()
      .delete(page.key)
      .catch(() => false);
  }
}

/** Keys this isolate is refreshing: one stale hit refreshes an entry; the others are served stale. */
const refreshing = new Set<string>();

function refreshLater(c: AppContext, page: CachedPage, entries: EntryKind): void {
  const { url } = page.key;
  if (refreshing.has(url)) return;
  refreshing.add(url);
  // Started on the next task, once this answer's log line is written: the refresh neither holds
  // the line nor adds to it. What it captures still goes to the reporting hook.
  const refresh = new Promise((resolve) => setTimeout(resolve, 0))
    .then(async () => {
      // Rendered with a nonce of its own: the stale hit's visitor has this request's in its CSP
      // header, and must not be able to plant it in content the refresh stores.
      const nonce = generateNonce();
      const started = renderStart();
      const entry = await (await entries.render(nonce)).entry();
      if (entry) await store(c, page, entry, nonce, started);
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
