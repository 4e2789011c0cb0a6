// A passkey's public key, from the COSE form the authenticator gives to the SubjectPublicKeyInfo D1
// keeps, and assertion signatures checked with WebCrypto (native, unlike a JavaScript bigint verify).
import { ECDSAPublicKey, decodePKIXECDSASignature, p256 } from "@oslojs/crypto/ecdsa";
import { RSAPublicKey } from "@oslojs/crypto/rsa";
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

function importKey(spki: Uint8Array, algorithm: number): Promise<CryptoKey> {
  return crypto.subtle.importKey("spki", owned(spki), algorithm === coseAlgorithmES256 ? ECDSA : RSA, false, [
    "verify",
  ]);
}

/**
 * The SubjectPublicKeyInfo (DER) of a credential's COSE key, or null for a key verge does not take:
 * another algorithm or curve, or a point that is not on P-256 (WebCrypto refuses to import it).
 */
export async function publicKeyInfo(
  key: COSEPublicKey,
): Promise<{ spki: Uint8Array; algorithm: number } | null> {
  try {
    const algorithm = key.algorithm();
    let spki: Uint8Array;
    if (algorithm === coseAlgorithmES256 && key.type() === COSEKeyType.EC2) {
      const { curve, x, y } = key.ec2();
      if (curve !== coseEllipticCurveP256) return null;
      spki = new ECDSAPublicKey(p256, x, y).encodePKIXUncompressed();
    } else if (algorithm === coseAlgorithmRS256 && key.type() === COSEKeyType.RSA) {
      const { n, e } = key.rsa();
      spki = new RSAPublicKey(n, e).encodePKIX();
    } else {
      return null;
    }
    await importKey(spki, algorithm);
    return { spki, algorithm };
  } catch {
    return null;
  }
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
      const raw = decodePKIXECDSASignature(signature).encodeIEEEP1363(p256);
      return await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, owned(raw), message);
    }
    return await crypto.subtle.verify(RSA.name, key, owned(signature), message);
  } catch {
    return false;
  }
}
