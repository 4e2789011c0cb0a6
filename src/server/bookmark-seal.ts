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

/** Between a bookmark and its seal: a character no D1 bookmark or base64url text holds. */
const SEPARATOR = ".";

/** `bookmark` as verge sends it: the bookmark, ".", and its HMAC-SHA256 in base64url. */
export async function sealBookmark(secret: string | undefined, bookmark: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret), new TextEncoder().encode(bookmark));
  return `${bookmark}${SEPARATOR}${base64url(mac)}`;
}

/** The bookmark `sealed` carries if verge sealed it with this key, else null. */
export async function openBookmark(secret: string | undefined, sealed: string): Promise<string | null> {
  const at = sealed.lastIndexOf(SEPARATOR);
  if (at < 0) return null;
  const bookmark = sealed.slice(0, at);
  const mac = fromBase64url(sealed.slice(at + 1));
  if (!mac) return null;
  // verify() compares in constant time: the seal cannot be found byte by byte.
  const valid = await crypto.subtle.verify(
    "HMAC",
    await keyFor(secret),
    mac,
    new TextEncoder().encode(bookmark),
  );
  return valid ? bookmark : null;
}
