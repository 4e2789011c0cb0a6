// The D1 bookmark the benchmark sends so that the app renders a page its edge cache would serve
// (the floor renders every time): sealed as verge seals bookmarks (src/server/bookmark-seal.ts),
// under the secret the benchmark gives every Worker it starts (miniflare.mjs).
// At least 32 bytes: verge refuses a shorter secret (src/server/bookmark-seal.ts).
export const BENCH_BOOKMARK_SECRET = "verge-bench-bookmark-secret-for-the-local-runs-only";

const BOOKMARK = "00000000-00000000-00000000-00000000000000000000000000000000";

const encoder = new TextEncoder();
const key = await crypto.subtle.importKey(
  "raw",
  encoder.encode(BENCH_BOOKMARK_SECRET),
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["sign"],
);
const mac = Buffer.from(await crypto.subtle.sign("HMAC", key, encoder.encode(BOOKMARK)));

/** `bookmark.hmac`, the HMAC in base64url: what verge sends a visitor who just wrote. */
export const RENDER_BOOKMARK = `${BOOKMARK}.${mac.toString("base64url")}`;
