// A passkey's public key, from the COSE form the authenticator gives to the SubjectPublicKeyInfo D1
// keeps, and assertion signatures checked, all with WebCrypto (native, and no ASN.1 library in the
// worker: WebCrypto writes the SPKI, and the one DER shape to read, an ECDSA signature, is read here).
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import {
  COSEKeyType,
  coseAlgorithmES256,
  coseAlgorithmRS256,
  coseEllipticCurveP256,
  type COSEPublicKey,
} from "@oslojs/webauthn";

/** The algorithms offered at registration, most preferred first: ES256 everywhere, RS256 for Windows Hello. */
export const ALGORITHMS = [coseAlgorithmES256, coseAlgorithmRS256] as const;

const ECDSA = { name: "ECDSA", namedCurve: "P-256" } as const;
const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/** A copy over a plain ArrayBuffer: WebCrypto's types take no ArrayBufferLike, oslo's bytes are. */
const owned = (bytes: Uint8Array) => new Uint8Array(bytes);

/** An unsigned big-endian integer in base64url, `length` bytes long (0: as short as it goes). */
function integer(value: bigint, length = 0): string {
  const hex = value.toString(16).padStart(length * 2, "0");
  const even = hex.length % 2 ? `0${hex}` : hex;
  return encodeBase64urlNoPadding(Uint8Array.from(even.match(/../g)!, (byte) => parseInt(byte, 16)));
}

function importKey(spki: Uint8Array, algorithm: number): Promise<CryptoKey> {
  return crypto.subtle.importKey("spki", owned(spki), algorithm === coseAlgorithmES256 ? ECDSA : RSA, false, [
    "verify",
  ]);
}

/** The COSE key as a JWK, or null for another algorithm or curve. */
function jwk(key: COSEPublicKey): JsonWebKey | null {
  const algorithm = key.algorithm();
  if (algorithm === coseAlgorithmES256 && key.type() === COSEKeyType.EC2) {
    const { curve, x, y } = key.ec2();
    return curve === coseEllipticCurveP256
      ? { kty: "EC", crv: "P-256", x: integer(x, 32), y: integer(y, 32) }
      : null;
  }
  if (algorithm === coseAlgorithmRS256 && key.type() === COSEKeyType.RSA) {
    const { n, e } = key.rsa();
    return { kty: "RSA", n: integer(n), e: integer(e) };
  }
  return null;
}

/**
 * The SubjectPublicKeyInfo (DER) of a credential's COSE key, or null for a key verge does not take:
 * another algorithm or curve, or one WebCrypto refuses (a point not on P-256, a malformed modulus).
 */
export async function publicKeyInfo(
  key: COSEPublicKey,
): Promise<{ spki: Uint8Array; algorithm: number } | null> {
  try {
    const algorithm = key.algorithm();
    const asJwk = jwk(key);
    if (!asJwk) return null;
    const imported = await crypto.subtle.importKey(
      "jwk",
      asJwk,
      algorithm === coseAlgorithmES256 ? ECDSA : RSA,
      true,
      ["verify"],
    );
    return { spki: new Uint8Array(await crypto.subtle.exportKey("spki", imported)), algorithm };
  } catch {
    return null;
  }
}

/**
 * An ECDSA P-256 signature from its DER form (SEQUENCE of INTEGER r, INTEGER s, as WebAuthn sends
 * it) to the r || s WebCrypto verifies, or null if it is not exactly that shape.
 */
export function p1363Signature(der: Uint8Array): Uint8Array | null {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const out = new Uint8Array(64);
  let at = 2;
  for (const half of [0, 32]) {
    const length = der[at + 1]!;
    if (der[at] !== 0x02 || length === 0 || length > 33 || at + 2 + length > der.length) return null;
    let value = der.subarray(at + 2, at + 2 + length);
    if (value[0]! & 0x80) return null; // negative: not a valid r or s
    while (value.length > 1 && value[0] === 0) value = value.subarray(1);
    if (value.length > 32) return null;
    out.set(value, half + 32 - value.length);
    at += 2 + length;
  }
  return at === der.length ? out : null;
}

/**
 * Whether `signature` is the passkey's over authenticatorData || SHA-256(clientDataJSON)
 * (WebAuthn's assertion signature). ES256 signatures come DER-encoded; WebCrypto wants r || s.
 * Any malformed input is a false, never a throw.
 */
export async function verifyAssertionSignature(
  spki: Uint8Array,
  algorithm: number,
  authenticatorData: Uint8Array,
  clientDataJSON: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    const clientDataHash = new Uint8Array(await crypto.subtle.digest("SHA-256", owned(clientDataJSON)));
    const message = new Uint8Array(authenticatorData.length + clientDataHash.length);
    message.set(authenticatorData);
    message.set(clientDataHash, authenticatorData.length);
    const key = await importKey(spki, algorithm);
    if (algorithm === coseAlgorithmES256) {
      const raw = p1363Signature(signature);
      return (
        raw !== null &&
        (await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, owned(raw), message))
      );
    }
    return await crypto.subtle.verify(RSA.name, key, owned(signature), message);
  } catch {
    return false;
  }
}
