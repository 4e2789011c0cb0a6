// Form keys: made for one rendering of a form, and the last few thousand remembered by the isolate
// that made them, so the edge cache can refuse any answer that holds one, whatever it looks like.

/**
 * How many keys an isolate remembers: a flood of renders costs at most this many (about 1 MiB
 * for keys of 100 characters). 4096 keys within one render is hundreds of renders a second
 * through a ten-second render, more than one isolate serves. A render that sees more is not stored.
 */
export const REMEMBERED_KEYS = 4096;

/** The last keys issued: key number `n` is at `n % REMEMBERED_KEYS` until key `n + 4096` takes it. */
const ring: string[] = [];
/** How many keys this isolate has issued: the next key's number. */
let issued = 0;
/** Each remembered key's newest number, to tell a key issued during a render from an older one. */
const numberOf = new Map<string, number>();
/**
 * The remembered keys by length: how many share each hash (hashOf), and the newest key's number,
 * so a check looks only for the lengths issued during its render, each in one pass over the text.
 */
const byLength = new Map<number, { newest: number; hashes: Map<number, number> }>();

const BASE = 31;

/** A polynomial hash of `length` code units of `text` from `from`, mod 2^32: rolled on in scan(). */
function hashOf(text: string, from: number, length: number): number {
  let hash = 0;
  for (let i = from; i < from + length; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * A fresh idempotency key for one rendering of a form (call it in the page's loader): a UUID, or
 * what `make` returns for a key of another shape. Either way the edge cache will not store an
 * answer that holds it.
 */
export function newIdempotencyKey(make: () => string = () => crypto.randomUUID()): string {
  const key = make();
  const slot = issued % REMEMBERED_KEYS;
  if (issued >= REMEMBERED_KEYS) forget(ring[slot]!, issued - REMEMBERED_KEYS);
  ring[slot] = key;
  numberOf.set(key, issued);
  const kept = byLength.get(key.length) ?? { newest: 0, hashes: new Map<number, number>() };
  const hash = hashOf(key, 0, key.length);
  kept.hashes.set(hash, (kept.hashes.get(hash) ?? 0) + 1);
  kept.newest = issued;
  byLength.set(key.length, kept);
  issued++;
  return key;
}

/** Drops key number `n` from memory (a key issued again since stays, under its newer number). */
function forget(key: string, n: number): void {
  if (numberOf.get(key) === n) numberOf.delete(key);
  const kept = byLength.get(key.length)!;
  const hash = hashOf(key, 0, key.length);
  const left = kept.hashes.get(hash)! - 1;
  if (left > 0) kept.hashes.set(hash, left);
  else kept.hashes.delete(hash);
  if (kept.hashes.size === 0) byLength.delete(key.length);
}

/** Where a render begins: what holdsKeyIssuedSince is given once the render's answer is whole. */
export const keyMark = (): number => issued;

/** How many keys this isolate remembers now (at most REMEMBERED_KEYS). */
export const rememberedKeys = (): number => numberOf.size;

/**
 * Whether `text` may hold a key issued since `mark` (keyMark() as its render began): an answer
 * like that is one visitor's. If keys issued since have been forgotten, it may: the answer is
 * not stored, which costs a render, where storing one visitor's key for everyone would leak it.
 * The text is read once per length of key issued meanwhile, however many keys that was.
 */
export function holdsKeyIssuedSince(text: string, mark: number): boolean {
  if (issued - mark > REMEMBERED_KEYS) return true;
  for (const [length, { newest, hashes }] of byLength) {
    if (newest >= mark && scan(text, length, hashes, mark)) return true;
  }
  return false;
}

/** Whether `text` holds a key of `length` issued since `mark`: one rolling hash over the text. */
function scan(text: string, length: number, hashes: Map<number, number>, mark: number): boolean {
  if (length === 0) return true;
  if (text.length < length) return false;
  // BASE^(length - 1) mod 2^32: the weight of the code unit that leaves the window.
  let top = 1;
  for (let i = 1; i < length; i++) top = Math.imul(top, BASE);
  let hash = hashOf(text, 0, length);
  for (let at = 0; ; at++) {
    // A hash shared by chance costs one lookup; only the key itself, issued since, counts.
    if (hashes.has(hash) && (numberOf.get(text.slice(at, at + length)) ?? -1) >= mark) return true;
    if (at + length >= text.length) return false;
    const out = Math.imul(text.charCodeAt(at), top);
    hash = (Math.imul(hash - out, BASE) + text.charCodeAt(at + length)) | 0;
  }
}
