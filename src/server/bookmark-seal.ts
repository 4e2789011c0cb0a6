// Seals the D1 bookmarks verge hands out with an HMAC, so that it reads back only the ones it issued.

/**
 * A key for `secret` (D1_BOOKMARK_SECRET), or, unset, one made at random for this isolate: no
 * one can forge a bookmark either way, but without the secret a bookmark read by another isolate
 * is ignored (that visitor may read from a replica behind their write). Set it in production.
 */
function keyFor(secret: string | undefined): Promise<CryptoKey> {
  if (keyCache === undefined || keyCache.secret !== secret) {
    const usages: KeyUsage[] = ["sign", "verify"];
    const algorithm = { name: "HMAC", hash: "SHA-256" };
    const key = secret
      ? crypto.subtle.importKey("raw", new TextEncoder().encode(secret), algorithm, false, usages)
      : (crypto.subtle.generateKey(algorithm, false, usages) as Promise<CryptoKey>);
    keyCache = { secret, key };
  }
  return keyCache.key;
}

let keyCache: { secret: string | undefined; key: Promise<CryptoKey> } | undefined;

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[\w-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null; // a length base64 cannot have
  }
}

/** Between a bookmark, its issue time and its seal: a character none of them holds. */
const SEPARATOR = ".";
/** How far a seal's issue time may be ahead of this machine's clock (another machine's, later). */
const CLOCK_SKEW_MS = 5_000;

/**
 * `bookmark` as verge sends it: the bookmark, ".", its issue time (seconds, base 36), ".", and
 * the HMAC-SHA256 of both in base64url. The time is sealed too, so no one can make it younger.
 */
export async function sealBookmark(
  secret: string | undefined,
  bookmark: string,
  issuedAt = Date.now(),
): Promise<string> {
  const signed = `${bookmark}${SEPARATOR}${Math.floor(issuedAt / 1000).toString(36)}`;
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret), new TextEncoder().encode(signed));
  return `${signed}${SEPARATOR}${base64url(mac)}`;
}

/** What a seal verge made carries: the bookmark and when it was issued (ms). */
export interface OpenedBookmark {
  bookmark: string;
  issuedAt: number;
}

/**
 * The bookmark `sealed` carries if verge sealed it with this key less than `maxAgeS` ago, else
 * null: one signature must not be a cache-bypass token for ever.
 */
export async function openBookmark(
  secret: string | undefined,
  sealed: string,
  maxAgeS: number,
): Promise<OpenedBookmark | null> {
  const at = sealed.lastIndexOf(SEPARATOR);
  if (at < 0) return null;
  const signed = sealed.slice(0, at);
  const mac = fromBase64url(sealed.slice(at + 1));
  const time = signed.lastIndexOf(SEPARATOR);
  if (!mac || time < 0 || !/^[0-9a-z]{1,10}$/.test(signed.slice(time + 1))) return null;
  const issuedAt = parseInt(signed.slice(time + 1), 36) * 1000;
  const now = Date.now();
  if (issuedAt > now + CLOCK_SKEW_MS || now - issuedAt > maxAgeS * 1000) return null;
  // verify() compares in constant time: the seal cannot be found byte by byte.
  const valid = await crypto.subtle.verify(
    "HMAC",
    await keyFor(secret),
    mac,
    new TextEncoder().encode(signed),
  );
  return valid ? { bookmark: signed.slice(0, time), issuedAt } : null;
}

/** Shortest D1_BOOKMARK_SECRET accepted: HMAC-SHA256's own output length. */
export const MIN_SECRET_BYTES = 32;

/** Why `secret` cannot seal bookmarks, or null (unset is fine: a random key per isolate). */
export function weakSecret(secret: string | undefined): string | null {
  if (!secret) return null;
  const bytes = new TextEncoder().encode(secret).length;
  if (bytes >= MIN_SECRET_BYTES) return null;
  return (
    `D1_BOOKMARK_SECRET is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES} bytes, or a ` +
    `seal could be guessed. Set a random one: \`openssl rand -base64 48 | npx wrangler secret put ` +
    `D1_BOOKMARK_SECRET\`.`
  );
}
