// How a page's answer is kept in this location's Cache API: its key, and the entry's format. A
// document is stored with a secret placeholder nonce, restamped each time the entry is served.
import { IDEMPOTENCY_FIELD } from "../shared/protocol";
import { generateNonce } from "./headers";

/** A page's two kinds of answer, kept apart: its document and its page data. */
export type CachedKind = "html" | "data";
export const CACHED_KINDS: readonly CachedKind[] = ["html", "data"];

/** Kept with an entry and never sent: when it was stored (ms), and its document's placeholder. */
const STORED_AT_HEADER = "X-Verge-Stored-At";
export const PLACEHOLDER_HEADER = "X-Verge-Placeholder";

/**
 * A value shaped like newIdempotencyKey()'s (a UUID) makes an answer one visitor's: two visitors
 * must never be handed the same form key, so such an answer is not stored (nor is a document
 * with a form key field, however its key was made).
 */
const FORM_KEY = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * What a page's entries are kept under besides its URL: the client `build`, and this deploy's
 * version where the Worker has the binding (CF_VERSION_METADATA): a deploy of server code or of
 * settings alone changes no client build, and must not serve the pages of the one before it.
 */
export function cacheGeneration(build: string, env: Env): string {
  const version = (env as Partial<Pick<Env, "CF_VERSION_METADATA">>).CF_VERSION_METADATA?.id;
  return version ? `${build}.${version}` : build;
}

/**
 * The entry's key: the page URL (already without `_data`), its kind and the generation that made
 * it (cacheGeneration).
 */
export function cacheKey(url: URL, kind: CachedKind | "forgotten", generation: string): Request {
  const separator = url.search ? "&" : "?";
  return new Request(
    `${url.origin}${url.pathname}${url.search}${separator}verge-cache=${kind}.${generation}`,
  );
}

/**
 * A mark that may be up to this much newer than a render's start and still count as made after
 * it: the clocks of one location's machines may differ. Erring this way only costs a miss.
 */
const CLOCK_SKEW_MS = 1000;

/**
 * Marks the page at `url` forgotten now (an action changed it), for `ttl` seconds. Its mark is
 * kept beside its entries and never served.
 */
export async function markForgotten(url: URL, generation: string, ttl: number): Promise<void> {
  const headers = { "Cache-Control": `max-age=${Math.ceil(ttl)}`, [STORED_AT_HEADER]: String(Date.now()) };
  await edgeCache().put(cacheKey(url, "forgotten", generation), new Response("", { headers }));
}

/** Whether the page at `url` was marked forgotten after `since` (ms): a render begun then is out of date. */
export async function forgottenSince(url: URL, generation: string, since: number): Promise<boolean> {
  const mark = await edgeCache()
    .match(cacheKey(url, "forgotten", generation))
    .catch(() => undefined);
  if (!mark) return false;
  await mark.body?.cancel();
  return Number(mark.headers.get(STORED_AT_HEADER)) > since - CLOCK_SKEW_MS;
}

/**
 * This location's cache (Miniflare's in `wrangler dev` and tests). The DOM lib (for client code)
 * and the workers types both declare a global CacheStorage; the DOM one, without `default`, wins.
 */
export function edgeCache(): Cache {
  return (caches as unknown as { default: Cache }).default;
}

/** The entry for `key` and its age in seconds, if there is one (a document only with its placeholder). */
export async function findEntry(
  key: Request,
  kind: CachedKind,
): Promise<{ entry: Response; age: number } | null> {
  // The cache only saves work: if it fails, the page is rendered.
  const entry = await edgeCache()
    .match(key)
    .catch(() => undefined);
  if (!entry) return null;
  if (kind === "html" && !entry.headers.has(PLACEHOLDER_HEADER)) {
    await entry.body?.cancel();
    return null;
  }
  const age = (Date.now() - Number(entry.headers.get(STORED_AT_HEADER))) / 1000;
  return { entry, age };
}

/**
 * An entry as an answer, with only its body and type. A document's placeholder is in its nonce
 * attributes and nowhere else (storeEntry made sure), so replacing it in the text restamps those
 * attributes, and only those, with `nonce`: what an HTMLRewriter pass would do, for a fraction of
 * its cost on every hit.
 */
export async function servedEntry(
  entry: Response,
  nonce: string,
  headers: Record<string, string>,
): Promise<Response> {
  const placeholder = entry.headers.get(PLACEHOLDER_HEADER);
  const body = placeholder === null ? entry.body : (await entry.text()).replaceAll(placeholder, nonce);
  return new Response(body, {
    status: entry.status,
    headers: { "Content-Type": entry.headers.get("Content-Type") ?? "", ...headers },
  });
}

/**
 * A document as stored: HTMLRewriter sets every nonce attribute equal to `nonce` (this response's),
 * and only those, to `placeholder`. Null if the document may not be shared: it has a form key
 * field, or `nonce` or the placeholder appear anywhere else.
 */
async function withPlaceholder(body: Blob, nonce: string, placeholder: string): Promise<string | null> {
  let swapped = 0;
  let keyed = false;
  const text = await new HTMLRewriter()
    .on("[nonce]", {
      element(element) {
        if (element.getAttribute("nonce") !== nonce) return;
        element.setAttribute("nonce", placeholder);
        swapped++;
      },
    })
    .on(`input[name="${IDEMPOTENCY_FIELD}"]`, { element: () => void (keyed = true) })
    .transform(new Response(body))
    .text();
  const exact = text.split(placeholder).length - 1 === swapped && !text.includes(nonce);
  return keyed || !exact ? null : text;
}

/**
 * Stores an answer for `ttl` seconds unless it carries a form key (then it answers false); a
 * document with a placeholder in place of `nonce`, new for each entry and as unguessable as a
 * nonce: content that could carry a nonce attribute must not be able to name it, and so be
 * restamped into an allowed script.
 */
export async function storeEntry(
  key: Request,
  kind: CachedKind,
  answer: { body: Blob; type: string; nonce: string },
  ttl: number,
): Promise<boolean> {
  const { body, type, nonce } = answer;
  const placeholder = generateNonce();
  const text = kind === "html" ? await withPlaceholder(body, nonce, placeholder) : await body.text();
  if (text === null || FORM_KEY.test(text)) return false;
  const headers: Record<string, string> = {
    "Content-Type": type,
    "Cache-Control": `max-age=${Math.ceil(ttl)}`,
    [STORED_AT_HEADER]: String(Date.now()),
  };
  if (kind === "html") headers[PLACEHOLDER_HEADER] = placeholder;
  await edgeCache().put(key, new Response(text, { headers }));
  return true;
}

/** `source` passed on as it is read; `complete` gives its chunks, or null if it was cut short. */
export function copyOnRead(source: ReadableStream<Uint8Array<ArrayBuffer>>) {
  const reader = source.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let settle: (chunks: Uint8Array<ArrayBuffer>[] | null) => void = () => {};
  const complete = new Promise<Uint8Array<ArrayBuffer>[] | null>((resolve) => (settle = resolve));
  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          settle(chunks);
        } else {
          chunks.push(value);
          controller.enqueue(value);
        }
      } catch (error) {
        settle(null);
        controller.error(error);
      }
    },
    // The visitor left: the render is cancelled as it would be without the cache.
    cancel(reason) {
      settle(null);
      return reader.cancel(reason);
    },
  });
  return { body, complete };
}
