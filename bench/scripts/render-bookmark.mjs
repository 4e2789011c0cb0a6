// The D1 bookmark the benchmark sends so that the app renders a page its edge cache would serve
// (the floor renders every time): sealed as verge seals bookmarks (src/server/bookmark-seal.ts),
// under the secret the benchmark gives every Worker it starts (miniflare.mjs).
import { createHmac } from "node:crypto";

// At least 32 bytes: verge refuses a shorter secret (src/server/bookmark-seal.ts).
export const BENCH_BOOKMARK_SECRET = "verge-bench-bookmark-secret-for-the-local-runs-only";

const BOOKMARK = "00000000-00000000-00000000-00000000000000000000000000000000";

/**
 * The bookmark as verge sends a visitor who just wrote: the bookmark, its issue time (seconds,
 * base 36) and the HMAC of both in base64url. verge ignores one sealed more than a minute ago
 * (D1_BOOKMARK_MAX_AGE_S), and a bookmark it ignores sends the visitor to the edge cache: each
 * window of load is sealed as it starts (load.mjs).
 */
export function renderBookmark(now = Date.now()) {
  const signed = `${BOOKMARK}.${Math.floor(now / 1000).toString(36)}`;
  return `${signed}.${createHmac("sha256", BENCH_BOOKMARK_SECRET).update(signed).digest("base64url")}`;
}

/** The header that carries it, sealed now. */
export const renderHeaders = () => ({ "x-d1-bookmark": renderBookmark() });
