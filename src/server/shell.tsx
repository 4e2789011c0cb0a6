// Pages with a per-visitor loader (`visitorLoader`): what every visitor shares, the shell, is
// rendered once with React's prerender, the holes that read `visitor` left pending, and kept in
// the edge cache with React's postponed state. Each request sends the stored shell at once under
// its own nonce, and resumes the holes with the visitor's data in the same response.
import { prerender } from "react-dom/static";
import { resume } from "react-dom/server";
import type { PostponedState } from "react-dom/static";
import { DEFERRED_ATTR, VISITOR_KEY, STATUS, type DeferredMarker, type PageData } from "../shared/protocol";
import { isRedirect, redirectLocation, type RouteModule } from "../shared/route-module";
import { tagDeferred } from "../shared/await";
import { scriptSafeJson } from "../shared/serialize";
import type { AppContext } from "./context";
import { loadPage, startVisitor, type LoadedPage, type ResolvedRoute } from "./load-page";
import { cachedUrl, policyOf } from "./cache-policy";
import { cacheKey, documentBytes, edgeCache, findEntry, PLACEHOLDER_HEADER } from "./cache-entry";
import { nonceAttributeOffsets, spliceAt } from "./nonce-splice";
import {
  bookmarked,
  generation,
  lifetime,
  note,
  refreshLater,
  renderStart,
  store,
  withEntryHeaders,
  type CachedPage,
  type Started,
  uncacheable,
} from "./page-cache";
import { documentTree, embeddedJson, pageDeferred, renderDeadline } from "./document";
import { answerHeaders, generateNonce, renderNonce, requestNonce } from "./headers";
import { htmlResponse, redirectResponse } from "./respond";
import { logField, logWhenSettled } from "./logger";
import { waitUntil } from "./capture";
import { timed } from "./timings";
import { underDevServer } from "./dev";
import { splitDeferred } from "./deferred";

/**
 * Kept with a stored shell: where its document ends and React's postponed state begins, where
 * that ends and the page's data begins, and its build.
 */
const PRELUDE_LENGTH_HEADER = "X-Verge-Prelude-Length";
const POSTPONED_LENGTH_HEADER = "X-Verge-Postponed-Length";
const SHELL_BUILD_HEADER = "X-Verge-Build";
/** A stored shell's own name: its state, once read, is kept under it (readStates). */
const SHELL_ID_HEADER = "X-Verge-Shell";

/** What a prelude ends with when holes follow it: resume writes the document's end itself. */
const DOCUMENT_END = new TextEncoder().encode("</body></html>");

/** A page's shell: its document up to the holes, and what React needs to resume them. */
interface Shell {
  /** The document under one nonce (the placeholder while stored, the visitor's once sent). */
  prelude: Uint8Array<ArrayBuffer>;
  /**
   * What React resumes the holes from (as JSON text when it is parsed only as they are resumed);
   * null when nothing was left pending: the prelude is the whole document.
   */
  postponed: PostponedState | string | null;
  /** The page the shell shows, deferred values settled: what the holes are resumed with. */
  page: PageData;
  /** False when the shell may be sent but not stored (sealed()). */
  storable?: boolean;
  /** A stored shell's: lets it go, entry and kept state, when React cannot resume it. */
  forget?: () => void;
}

/**
 * The document of a cached page with a per-visitor loader: its shell from the edge cache, stored
 * on a miss; a visitor reading past the cache (and `vite dev`) gets one made for this request.
 * Either way the holes are resumed with this visitor's data.
 */
export async function shellAnswer(c: AppContext, url: URL, route: ResolvedRoute): Promise<Response> {
  const visitor = startVisitor(c, url, c.req.raw, route)!;
  const { module } = route;
  const policy = policyOf(module)!;
  let page: CachedPage | null = null;
  if (underDevServer(c) || bookmarked(c)) note(c, "bypass");
  else {
    const keptUrl = cachedUrl(url, policy);
    page = { url: keptUrl, kind: "html", policy, key: cacheKey(keptUrl, "html", generation(c)) };
    const found = await timed(c, "cache", () => findEntry(page!.key, "html"));
    if (found && found.age <= lifetime(policy)) {
      const stored = await storedShell(c, found.entry, page.key);
      const answer = typeof stored === "string" ? stored : resumed(c, module, stored, visitor);
      if (typeof answer !== "string") {
        const stale = found.age > policy.maxAge;
        note(c, stale ? "stale" : "shell");
        if (stale) refreshLater(c, page, async () => answerOf(await madeShell(c, url, route, visitor)));
        return answer;
      }
      // Never served half: the page is made anew, and its line says why the stored one was not used.
      logField(c, "shellRefused", answer);
    } else await found?.entry.body?.cancel();
    note(c, "miss");
  }
  const made = await madeShell(c, url, route, visitor);
  if ("redirect" in made) return made.redirect;
  if (page && c.req.method !== "HEAD" && made.entry.status === STATUS.ok && made.shell.storable) {
    const { entry, started } = made;
    const stored = entry.blob().then((body) => store(c, page, entry, body, started));
    waitUntil(
      c,
      stored.catch(() => {}),
    );
  }
  const sent = spliced(made.shell, renderNonce(c), requestNonce(c));
  if (!sent) {
    throw new Error(`The page "${route.match.route.path}" shows its CSP nonce outside a nonce attribute`);
  }
  return resumed(c, module, sent, visitor);
}

/** What a refresh stores: the shell's entry, if it may be stored. */
const answerOf = (made: Awaited<ReturnType<typeof madeShell>>) =>
  "redirect" in made ? made.redirect : made.shell.storable ? made.entry : uncacheable(made.entry);

/**
 * The page's shell, prerendered under a nonce of its own (the entry's placeholder), with the
 * entry that stores it. A redirect from the loader is answered as on any page.
 */
async function madeShell(
  c: AppContext,
  url: URL,
  route: ResolvedRoute,
  visitor: Promise<unknown>,
): Promise<{ shell: Shell; entry: Response; started: Started } | { redirect: Response }> {
  c.set("renderNonce", generateNonce());
  const started = renderStart();
  const loaded = await loadPage(c, url, c.req.raw, route, visitor);
  if (isRedirect(loaded)) {
    return { redirect: redirectResponse(redirectLocation(loaded, url), STATUS.seeOther) };
  }
  const shell = await timed(c, "shell", () => prerendered(c, loaded, route));
  const postponed = new TextEncoder().encode(JSON.stringify(shell.postponed));
  const page = new TextEncoder().encode(JSON.stringify(shell.page));
  const body = new Blob([shell.prelude, postponed, page]);
  const entry = withEntryHeaders(htmlResponse(body.stream(), loaded.page.status), {
    [PRELUDE_LENGTH_HEADER]: String(shell.prelude.byteLength),
    [POSTPONED_LENGTH_HEADER]: String(postponed.byteLength),
    [SHELL_BUILD_HEADER]: c.get("app").manifest.build,
    [SHELL_ID_HEADER]: crypto.randomUUID(),
  });
  return { shell, entry, started };
}

/**
 * The page rendered with its shared data and its holes left pending: React's prerender, stopped
 * once the shared work is done (its deferred values settled, and React's next turns to render
 * them). The prelude's scripts get the render's nonce (prerender writes none); a prelude with
 * nothing in it means the page read its visitor data outside every <Suspense>: a page error.
 */
async function prerendered(c: AppContext, loaded: LoadedPage, route: ResolvedRoute): Promise<Shell> {
  const nonce = renderNonce(c);
  const capture = c.get("capture");
  const pending = tagDeferred(VISITOR_KEY, new Promise<never>(() => {}));
  const { live, json, settled } = pageDeferred(c, { ...loaded, visitor: undefined });
  live.visitor = pending as unknown as DeferredMarker;
  json.visitor = { $deferred: VISITOR_KEY };
  const tree = documentTree(c, loaded.module, live, nonce, embeddedJson(c, json));
  const stop = new AbortController();
  const done = new Error("the shell is done");
  void settled
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => stop.abort(done));
  // React writes no nonce in a prelude: sealed() puts the render's on its own two scripts.
  const { prelude, postponed } = await prerender(tree, {
    bootstrapModules: [c.get("app").manifest.entry],
    signal: stop.signal,
    // Boundaries stay inline: a prelude then holds no script of React's but the two sealed below.
    // (Finite: the postponed state keeps it, and JSON writes Infinity as null.)
    progressiveChunkSize: Number.MAX_SAFE_INTEGER,
    onError: (error) => (error === done ? undefined : capture(error)),
  });
  let bytes = new Uint8Array(await new Response(prelude).arrayBuffer());
  if (bytes.byteLength === 0) {
    throw new Error(
      `The page "${route.match.route.path}" reads its visitor data outside <Suspense>: render ` +
        `<Await resolve={visitor}> inside a <Suspense> boundary, so the rest of the page can be shared.`,
    );
  }
  const seal = sealed(bytes, nonce, c.get("app").manifest.entry);
  if (!seal.safe) logField(c, "shellRefused", "a script without the nonce");
  bytes = postponed === null ? seal.bytes : withoutDocumentEnd(seal.bytes);
  const data = await settledData(live.data);
  return { prelude: bytes, postponed, page: { ...json, data }, storable: seal.safe };
}

/** The loader's data with each deferred value as its settled marker (they have all settled). */
async function settledData(data: unknown): Promise<unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] = value instanceof Promise ? { $deferred: key, settled: await value } : value;
  }
  return out;
}

/**
 * The prelude with `nonce` on the two scripts React writes in it without one (its timing script
 * and the entry module), and whether every other script already carries it (the page's own,
 * rendered with it). One without it (markup a page inserted as HTML) is left as it is, blocked
 * as in any render, and the shell is not stored: a nonce stamped on it would let it run.
 */
function sealed(bytes: Uint8Array<ArrayBuffer>, nonce: string, entry: string) {
  const attribute = `nonce="${nonce}"`;
  let text = new TextDecoder().decode(bytes);
  const timing = "<script>requestAnimationFrame(function(){$RT=performance.now()});</script>";
  text = text.replace(timing, timing.replace("<script>", `<script ${attribute}>`));
  const bootstrap = `<script type="module" src="${escapeAttribute(entry)}" id="_R_" async="">`;
  text = text.replace(bootstrap, bootstrap.replace("<script ", `<script ${attribute} `));
  const safe = (text.match(/<script\b[^>]*>/gi) ?? []).every((tag) => tag.includes(attribute));
  return { bytes: new TextEncoder().encode(text), safe };
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function withoutDocumentEnd(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const start = bytes.byteLength - DOCUMENT_END.byteLength;
  const ends = start >= 0 && DOCUMENT_END.every((byte, i) => bytes[start + i] === byte);
  if (!ends) throw new Error("A prerendered shell does not end its document where React resumes it");
  return bytes.subarray(0, start);
}

/** `shell` with `to` where the nonce `from` stands; null if it shows `from` anywhere else. */
function spliced(shell: Shell, from: string, to: string): Shell | null {
  const prelude = shell.prelude.slice();
  const offsets = nonceAttributeOffsets(prelude, from);
  return offsets && spliceAt(prelude, offsets, from, to) ? { ...shell, prelude } : null;
}

/**
 * A stored shell under this request's nonce, or why it cannot be used: made by another build,
 * cut short, its state unreadable.
 */
async function storedShell(c: AppContext, entry: Response, key: Request): Promise<Shell | string> {
  const build = entry.headers.get(SHELL_BUILD_HEADER);
  const preludeLength = Number(entry.headers.get(PRELUDE_LENGTH_HEADER));
  const postponedLength = Number(entry.headers.get(POSTPONED_LENGTH_HEADER));
  if (build !== c.get("app").manifest.build) {
    await entry.body?.cancel();
    return "another build";
  }
  const lengths = [preludeLength, postponedLength];
  if (!entry.headers.has(PLACEHOLDER_HEADER) || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    await entry.body?.cancel();
    return "not a shell";
  }
  const pageAt = preludeLength + postponedLength;
  const id = entry.headers.get(SHELL_ID_HEADER);
  const forget = () => {
    if (id !== null) readStates.delete(id);
    waitUntil(
      c,
      edgeCache()
        .delete(key)
        .catch(() => false),
    );
  };
  // Read before in this isolate: only the prelude is read again, and React's state, known to be
  // its shape, is parsed once the prelude is on its way.
  const known = id === null ? undefined : readStates.get(id);
  if (known) {
    const prelude = await documentBytes(entry, requestNonce(c), preludeLength);
    if (!prelude) return "cut short";
    readStates.delete(id!);
    readStates.set(id!, known); // most recently used last: the first is the one to let go
    return { prelude, ...known, forget };
  }
  const bytes = await documentBytes(entry, requestNonce(c));
  if (!bytes || pageAt > bytes.byteLength) return "cut short";
  const postponedText = new TextDecoder().decode(bytes.subarray(preludeLength, pageAt));
  const postponed = parsed(postponedText);
  const page = parsed(new TextDecoder().decode(bytes.subarray(pageAt))) as PageData | undefined;
  const readable = postponed === null || isPostponedState(postponed);
  if (!readable || typeof page?.route !== "string") return "unreadable state";
  if (id !== null) {
    readStates.set(id, { page: deepFrozen(page), postponed: postponed === null ? null : postponedText });
    if (readStates.size > READ_STATES_KEPT) readStates.delete(readStates.keys().next().value!);
  }
  return { prelude: bytes.subarray(0, preludeLength), postponed, page, forget };
}

/** Whether `value` has the shape of the state React's prerender leaves (react-dom 19.2). */
function isPostponedState(value: unknown): value is PostponedState {
  const state = value as Record<string, unknown> | null;
  const object = (field: unknown) => typeof field === "object" && field !== null;
  return (
    object(state) &&
    typeof state!.nextSegmentId === "number" &&
    typeof state!.progressiveChunkSize === "number" &&
    object(state!.rootFormatContext) &&
    object(state!.resumableState) &&
    Array.isArray(state!.replayNodes) &&
    (typeof state!.replaySlots === "number" || typeof state!.replaySlots === "object") &&
    // Something to resume: holes inside the tree, or the root itself (its slots a number).
    (state!.replayNodes.length > 0 || typeof state!.replaySlots === "number")
  );
}

/** JSON's value, or undefined if it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Stored shells' states as read, by shell id, the most recently used few, per isolate: the page
 * data, the same for every visitor and most of a shell's state, parsed once and kept frozen, so
 * that no page can change what the next visitor's holes are rendered with; React's state as its
 * checked JSON text, parsed for each request (resume() changes what it is given).
 */
const readStates = new Map<string, { page: PageData; postponed: string | null }>();
const READ_STATES_KEPT = 32;

function deepFrozen<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFrozen(child);
  }
  return value;
}

/**
 * The answer: the shell at once, then the holes as React resumes them with the visitor's data,
 * under the response's nonce. A stored shell reaches here only once its state has been read
 * (storedShell()), so React is given what it wrote; should it still fail to resume (a state of the
 * right shape that does not fit the tree), the holes are ended in place with the failure's digest
 * (resumeFailed()), as a hole that throws is, and the shell is forgotten: the next visitor gets
 * a fresh render, not the same failure for the entry's life.
 */
function resumed(c: AppContext, module: RouteModule, shell: Shell, visitor: Promise<unknown>): Response {
  const headers = answerHeaders("html", module, shell.page.status);
  if (shell.postponed === null)
    return htmlResponse(new Blob([shell.prelude]).stream(), shell.page.status, headers);
  const nonce = requestNonce(c);
  const capture = c.get("capture");
  const { postponed } = shell;
  let forget = shell.forget;
  const unfit = () => {
    forget?.();
    forget = undefined;
  };
  // Begun once the prelude is on its way: React replays the way to the holes at once, in the
  // same turn, and the first byte should not wait for it, nor for what only React needs.
  let begin!: () => void;
  const begun = new Promise<void>((resolve) => (begin = resolve));
  const holes = begun.then(async () => {
    const hole = splitDeferred(c, { [VISITOR_KEY]: visitor });
    const page = { ...shell.page, visitor: (hole.live as Record<string, DeferredMarker>)[VISITOR_KEY] };
    // The embedded page data is in the prelude already: resume renders only the way to the holes.
    const tree = documentTree(c, module, page, nonce, "");
    const deadline = renderDeadline(c, hole.settled);
    try {
      const state = typeof postponed === "string" ? (JSON.parse(postponed) as PostponedState) : postponed;
      const stream = await timed(c, "resume", () =>
        resume(tree, state, {
          nonce,
          signal: deadline.signal,
          onError: (error) => {
            if (c.req.raw.signal.aborted) return undefined;
            if (doesNotFit(error)) unfit();
            return capture(error);
          },
        }),
      );
      stream.allReady.then(deadline.done, deadline.done);
      return stream;
    } catch (error) {
      deadline.done();
      throw error;
    }
  });
  logWhenSettled(
    c.get("log"),
    holes.then((stream) => stream.allReady).catch(() => {}),
  );
  const failed = (error: unknown) => {
    unfit();
    return resumeFailed(capture(error), nonce);
  };
  return htmlResponse(prefixed(shell.prelude, begin, holes, failed), shell.page.status, headers);
}

/**
 * Whether React gave a boundary up because the state does not fit the tree it replays (its words
 * in react-dom 19.2, development and production alike): the shell's fault, not the visitor's.
 */
const doesNotFit = (error: unknown) =>
  error instanceof Error && error.message.includes("The tree doesn't match so React will fallback");

/**
 * The end of a document whose holes React could not resume: the visitor's value as an error
 * with `digest`, where the page reads it (a browser renders the holes itself once the document
 * has loaded, and shows the route error view with the digest), then the document's end.
 */
function resumeFailed(digest: string, nonce: string): Uint8Array {
  const value = scriptSafeJson({ error: { digest } });
  const script = `<script type="application/json" ${DEFERRED_ATTR}="${VISITOR_KEY}" nonce="${nonce}">${value}</script>`;
  return new TextEncoder().encode(`${script}</body></html>`);
}

/**
 * `prefix`, then what `rest` streams once it is ready, or `failed`'s bytes if it cannot be.
 * `begin` starts `rest`: in the turn after the prefix is taken, or when the answer is cancelled
 * (so that what waits on `rest` still ends).
 */
function prefixed(
  prefix: Uint8Array<ArrayBuffer>,
  begin: () => void,
  rest: Promise<ReadableStream<Uint8Array>>,
  failed: (error: unknown) => Uint8Array,
): ReadableStream<Uint8Array> {
  // Handled here; pull() reads it.
  const ready = rest.then(
    (stream) => ({ reader: stream.getReader() }),
    (error: unknown) => ({ failure: failed(error) }),
  );
  let sentPrefix = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentPrefix) {
        sentPrefix = true;
        setTimeout(begin, 0);
        return controller.enqueue(prefix);
      }
      const next = await ready;
      if ("failure" in next) {
        controller.enqueue(next.failure);
        return controller.close();
      }
      const { done, value } = await next.reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: async (reason) => {
      begin();
      const next = await ready;
      if ("reader" in next) await next.reader.cancel(reason);
    },
  });
}
