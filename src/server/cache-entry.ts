// How a page's answer is kept in this location's Cache API: its key, and the entry's format. A
// document is stored as rendered, under a nonce never sent to anyone (its placeholder), with the
// offsets of the nonce attributes that hold it; each hit writes its own nonce there.
import { IDEMPOTENCY_FIELD } from "../shared/protocol";
import { holdsKeyIssuedSince } from "../shared/form-keys";
import { nonceAttributeOffsets, spliceAt, type streamSplicer } from "./nonce-splice";

/** A page's two kinds of answer, kept apart: its document and its page data; and an endpoint's GET. */
export type CachedKind = "html" | "data" | "endpoint";
/** A page's kinds: what an action on it forgets. */
export const CACHED_KINDS: readonly CachedKind[] = ["html", "data"];

/**
 * Kept with an entry and never sent: when it was stored (ms), its document's placeholder, the
 * byte offsets where the placeholder stands, and the document's length in bytes.
 */
const STORED_AT_HEADER = "X-Verge-Stored-At";
export const PLACEHOLDER_HEADER = "X-Verge-Placeholder";
const NONCE_AT_HEADER = "X-Verge-Nonce-At";
const LENGTH_HEADER = "X-Verge-Length";

/**
 * A UUID, the shape of most keys made for one response: an answer holding one is not stored (nor
 * is one holding a key newIdempotencyKey() issued during its render, whatever its shape, nor a
 * document with a form key field, however its key was made).
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
 * This location's cache (Miniflare's under the local servers and tests). The DOM lib (for client code)
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
  const document = [PLACEHOLDER_HEADER, NONCE_AT_HEADER, LENGTH_HEADER].every((name) =>
    entry.headers.has(name),
  );
  if (kind === "html" && !document) {
    await entry.body?.cancel();
    return null;
  }
  const age = (Date.now() - Number(entry.headers.get(STORED_AT_HEADER))) / 1000;
  return { entry, age };
}

/**
 * An entry as an answer, with only its body and type; a document with `nonce` written at its
 * recorded offsets, and nowhere else: no parse of the page, only a read and a copy of its bytes.
 * Null if the document is not the length stored or an offset does not hold the entry's
 * placeholder (then the page is rendered).
 */
export async function servedEntry(
  entry: Response,
  nonce: string,
  headers: Record<string, string>,
): Promise<Response | null> {
  const init = {
    status: entry.status,
    headers: { "Content-Type": entry.headers.get("Content-Type") ?? "", ...headers },
  };
  if (!entry.headers.has(PLACEHOLDER_HEADER)) return new Response(entry.body, init);
  const bytes = await documentBytes(entry, nonce);
  return bytes && new Response(bytes, init);
}

/**
 * A stored document's bytes with `nonce` written at its recorded offsets, or null if it is not
 * the length stored or an offset does not hold its placeholder. With `upTo`, only its first
 * `upTo` bytes (all its offsets among them), or null if it holds fewer.
 */
export async function documentBytes(
  entry: Response,
  nonce: string,
  upTo?: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const placeholder = entry.headers.get(PLACEHOLDER_HEADER)!;
  const at = entry.headers.get(NONCE_AT_HEADER)!;
  const offsets = at === "" ? [] : at.split(",").map(Number);
  // One read of the entry into the isolate, a few bytes written, and one copy into the answer.
  // Piping the entry's large parts natively grows less with the page, but takes a second lookup
  // and cannot fall back to a render once it has begun (decisions.md).
  // A read that fails only costs a render, as a lookup that fails does.
  const length = Number(entry.headers.get(LENGTH_HEADER));
  const whole = upTo === undefined || !(upTo < length);
  const bytes = await readBytes(entry.body, whole ? length : upTo, whole).catch(() => null);
  return bytes && spliceAt(bytes, offsets, placeholder, nonce) ? bytes : null;
}

/** workerd's BYOB reader, as far as readBytes uses it. */
interface RuntimeByobReader {
  readAtLeast<T extends ArrayBufferView>(min: number, view: T): Promise<{ value?: T }>;
  cancel(): Promise<void>;
}

/**
 * The first `length` bytes of `body` (`whole`: all of it, which must be `length` bytes), else
 * null (the entry is cut short or not the one stored): read by the runtime straight into one
 * buffer of that size, where `arrayBuffer()` gathers the chunks and then copies them into its own.
 */
async function readBytes(
  body: ReadableStream | null,
  length: number,
  whole: boolean,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (body === null || !Number.isSafeInteger(length) || length < 0) return null;
  // workerd's reader: the DOM lib's (for client code), which wins here, lacks readAtLeast.
  const reader = body.getReader({ mode: "byob" }) as unknown as RuntimeByobReader;
  // Whole: one byte more than stored, so that a longer body fills it, and is refused.
  const room = whole ? length + 1 : length;
  try {
    const { value } = await reader.readAtLeast(room, new Uint8Array(room));
    return value?.byteLength === length ? value : null;
  } finally {
    // Whatever was read, the rest of the entry's body is not wanted: release it, even on failure.
    await reader.cancel().catch(() => {});
  }
}

/** A document's form key field: such a page is one visitor's, whatever its key's shape. */
const FORM_KEY_FIELD = `name="${IDEMPOTENCY_FIELD}"`;

/** What an entry keeps of an answer: its body, its type, and headers of its own kind (a shell's). */
export interface StoredAnswer {
  body: Blob;
  type: string;
  headers?: Record<string, string>;
}

/**
 * Stores an answer for `ttl` seconds unless it carries a form key (then it answers false). A
 * document was rendered under `nonce`, which no visitor was sent (page-cache.ts): it stays in
 * the entry as its placeholder, and only where it is a whole nonce attribute's value. Content
 * cannot name it, so nothing a visitor supplied is ever restamped into an allowed script; a
 * document that shows it anywhere else is not stored.
 */
export async function storeEntry(
  key: Request,
  kind: CachedKind,
  answer: StoredAnswer & { nonce: string; keysFrom: number },
  ttl: number,
): Promise<boolean> {
  const { body, type, nonce, keysFrom } = answer;
  const bytes = new Uint8Array(await body.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  if (FORM_KEY.test(text) || holdsKeyIssuedSince(text, keysFrom)) return false;
  if (kind === "html" && text.includes(FORM_KEY_FIELD)) return false;
  const headers: Record<string, string> = {
    ...answer.headers,
    "Content-Type": type,
    "Cache-Control": `max-age=${Math.ceil(ttl)}`,
    [STORED_AT_HEADER]: String(Date.now()),
  };
  if (kind === "html") {
    const offsets = nonceAttributeOffsets(bytes, nonce);
    if (offsets === null) return false;
    headers[PLACEHOLDER_HEADER] = nonce;
    headers[NONCE_AT_HEADER] = offsets.join(",");
    headers[LENGTH_HEADER] = String(bytes.byteLength);
  }
  await edgeCache().put(key, new Response(bytes, { headers }));
  return true;
}

/**
 * `source` passed on as it is read, through `pass` (a render's nonce spliced for its visitor's);
 * `complete` gives its chunks as read, or null if it was cut short.
 */
export function copyOnRead(
  source: ReadableStream<Uint8Array<ArrayBuffer>>,
  pass?: ReturnType<typeof streamSplicer>,
) {
  const reader = source.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let settle: (chunks: Uint8Array<ArrayBuffer>[] | null) => void = () => {};
  const complete = new Promise<Uint8Array<ArrayBuffer>[] | null>((resolve) => (settle = resolve));
  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        // Reads on until there is something to pass: a pull that enqueues nothing may not be
        // called again.
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            const rest = pass?.end();
            if (rest) controller.enqueue(rest);
            controller.close();
            return settle(chunks);
          }
          chunks.push(value);
          const ready = pass ? pass.push(value) : value;
          if (ready.length > 0) return controller.enqueue(ready);
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
