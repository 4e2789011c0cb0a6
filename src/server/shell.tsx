// Pages with a per-visitor loader (`visitorLoader`): what every visitor shares, the shell, is
// rendered once with React's prerender, the holes that read `visitor` left pending, and kept in
// the edge cache with React's postponed state. Each request sends the stored shell at once under
// its own nonce, and resumes the holes with the visitor's data in the same response.
import { prerender } from "react-dom/static";
import { VISITOR_KEY, STATUS, type DeferredMarker } from "../shared/protocol";
import { isRedirect } from "../shared/redirect";
import { tagDeferred } from "../shared/await";
import { appendHeaders } from "../shared/answers";
import type { AppContext } from "./context";
import { loadPage, startVisitor, type LoadedPage, type ResolvedRoute } from "./load-page";
import { nonceAttributeOffsets, spliceAt } from "./nonce-splice";
import { cachedEntry, type Rendered } from "./page-cache";
import { documentTree, embeddedJson, pageDeferred } from "./document";
import { requestNonce } from "./headers";
import { redirectAnswer } from "./redirects";
import { logField } from "./logger";
import { timed } from "./timings";
import { shellEntry, storedShell, type Shell } from "./stored-shell";
import { resumed } from "./resume";
import { preludeScripts, prerenderTurns } from "./react-couplings";

/** What a prelude ends with when holes follow it: resume writes the document's end itself. */
const DOCUMENT_END = new TextEncoder().encode("</body></html>");

/**
 * The document of a cached page with a per-visitor loader: its shell from the edge cache, stored
 * on a miss; a visitor reading past the cache (and `vite dev`) gets one made for this request.
 * Either way the holes are resumed with this visitor's data.
 */
export function shellAnswer(c: AppContext, url: URL, route: ResolvedRoute): Promise<Response> {
  // Begun before the lookup: the visitor's data loads while the shell is found.
  const visitor = startVisitor(c, url, c.req.raw, route)!;
  return cachedEntry(c, url, route.module, {
    kind: "html",
    fresh: "shell",
    async served(entry, key) {
      const stored = await storedShell(c, entry, key);
      if (typeof stored !== "string") return resumed(c, route, stored, visitor);
      // Never served half: the page is made anew, and its line says why the stored one was not used.
      logField(c, "shellRefused", stored);
      return null;
    },
    render: (nonce) => madeShell(c, url, route, visitor, nonce),
  });
}

/**
 * The page's shell, prerendered under `nonce` (the entry's placeholder when it may be stored):
 * sent resumed for this visitor with its loaders' headers, stored as made. A redirect from the
 * loader is answered as on any page, and never stored; nor is a shell whose loader sets a cookie.
 */
async function madeShell(
  c: AppContext,
  url: URL,
  route: ResolvedRoute,
  visitor: Promise<unknown>,
  nonce: string,
): Promise<Rendered> {
  const loaded = await loadPage(c, url, c.req.raw, route, visitor);
  if (isRedirect(loaded)) {
    const answer = redirectAnswer(c, loaded, url);
    return { send: () => ({ answer, entry: null }), entry: async () => null };
  }
  const shell = await timed(c, "shell", () => prerendered(c, loaded, route, nonce));
  // A cookie is one visitor's: a shell whose loader sets one goes to its visitor, and no one else.
  const cookie = loaded.headers?.has("Set-Cookie") === true;
  if (cookie) logField(c, "cacheSkip", "set-cookie");
  const kept = shell.storable && loaded.page.status === STATUS.ok && !cookie;
  const entry = kept ? shellEntry(shell, c.get("app").manifest.build) : null;
  return {
    send(keep) {
      const sent = spliced(shell, nonce, requestNonce(c));
      if (!sent) {
        throw new Error(`The page "${route.match.route.path}" shows its CSP nonce outside a nonce attribute`);
      }
      const answer = resumed(c, route, sent, visitor);
      // The loaders' own headers, as a whole page's answer has them (never stored with the shell).
      appendHeaders(answer.headers, loaded.headers);
      return { answer, entry: keep && entry ? Promise.resolve(entry) : null };
    },
    entry: async () => entry,
  };
}

/**
 * The page rendered with its shared data and its holes left pending: React's prerender, stopped
 * once the shared work is done (its deferred values settled, and React's next turns to render
 * them). The prelude's scripts get the render's nonce (prerender writes none); a prelude with
 * nothing in it means the page read its visitor data outside every <Suspense>: a page error.
 */
async function prerendered(
  c: AppContext,
  loaded: LoadedPage,
  route: ResolvedRoute,
  nonce: string,
): Promise<Shell> {
  const capture = c.get("capture");
  const pending = tagDeferred(VISITOR_KEY, new Promise<never>(() => {}));
  const { live, json, settled } = pageDeferred(c, { ...loaded, visitor: undefined });
  live.visitor = pending as unknown as DeferredMarker;
  // Resumed, the visitor's value goes out once ahead of the holes (resume.ts): none carries its own.
  json.visitor = { $deferred: VISITOR_KEY, ahead: true };
  const tree = documentTree(c, loaded, live, nonce, embeddedJson(c, json, loaded));
  const stop = new AbortController();
  const done = new Error("the shell is done");
  void settled.then(prerenderTurns).then(() => stop.abort(done));
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
  for (const tag of preludeScripts(entry))
    text = text.replace(tag, tag.replace("<script", `<script ${attribute}`));
  const safe = (text.match(/<script\b[^>]*>/gi) ?? []).every((tag) => tag.includes(attribute));
  return { bytes: new TextEncoder().encode(text), safe };
}

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
