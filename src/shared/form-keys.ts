// Form keys: made for one rendering of a form, and remembered for a while by the isolate that made
// them, so the edge cache can refuse any answer that holds one, whatever the key looks like.

/** Keys this isolate issued, oldest first, with when (ms): a render checks the ones since it began. */
const issued: { key: string; at: number }[] = [];

/** Longer than any render may take (its deadline, DEFERRED_TIMEOUT_MS, is 10 s by default). */
const REMEMBERED_MS = 5 * 60_000;

/**
 * A fresh idempotency key for one rendering of a form (call it in the page's loader): a UUID, or
 * what `make` returns for a key of another shape. Either way the edge cache will not store an
 * answer that holds it.
 */
export function newIdempotencyKey(make: () => string = () => crypto.randomUUID()): string {
  const key = make();
  const at = Date.now();
  let stale = 0;
  while (stale < issued.length && issued[stale]!.at < at - REMEMBERED_MS) stale++;
  issued.splice(0, stale);
  issued.push({ key, at });
  return key;
}

/**
 * Whether `text` holds a key this isolate issued at or after `since` (ms): an answer rendered from
 * then on that holds one is one visitor's. Keys issued meanwhile for other requests are checked
 * too; one would only make the answer a miss.
 */
export function holdsKeyIssuedSince(text: string, since: number): boolean {
  for (let i = issued.length - 1; i >= 0 && issued[i]!.at >= since; i--) {
    if (text.includes(issued[i]!.key)) return true;
  }
  return false;
}
