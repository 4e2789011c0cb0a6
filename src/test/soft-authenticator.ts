// A software passkey for tests: a WebCrypto key pair, and the authenticatorData, clientDataJSON,
// attestationObject ('none', CBOR) and assertion signatures a real authenticator and browser would
// send, built by hand (no WebAuthn library), so the server's verification is checked independently.
// Each part can be bent for hostile tests (another origin, RP ID, challenge, counter, flags).

/** base64url without padding, as `PublicKeyCredential.toJSON()` writes bytes. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const concat = (...parts: ArrayLike<number>[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
const utf8 = (text: string) => new TextEncoder().encode(text);

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

/** A CBOR item's head: major type and argument (RFC 8949 §3). */
function head(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n];
  if (n < 0x100) return [(major << 5) | 24, n];
  if (n < 0x10000) return [(major << 5) | 25, n >> 8, n & 0xff];
  return [(major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** Just the CBOR WebAuthn uses: integers, byte and text strings, maps (in the order given). */
export function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return new Uint8Array(value >= 0 ? head(0, value) : head(1, -1 - value));
  if (typeof value === "string") return concat(head(3, utf8(value).length), utf8(value));
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** An ECDSA signature as WebAuthn carries it: DER SEQUENCE of two INTEGERs, from WebCrypto's r || s. */
function derSignature(p1363: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const value = bytes[start]! & 0x80 ? concat([0], bytes.subarray(start)) : bytes.subarray(start);
    return concat([0x02, value.length], value);
  };
  const body = concat(integer(p1363.subarray(0, 32)), integer(p1363.subarray(32)));
  return concat([0x30, body.length], body);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export type Algorithm = "ES256" | "RS256";

export interface SoftAuthenticator {
  algorithm: Algorithm;
  credentialId: Uint8Array;
  keys: CryptoKeyPair;
  /** The signature counter: 0 stays 0 (as synced passkeys do); otherwise each assertion adds 1. */
  counter: number;
  /** The user handle it keeps from registration (the account id's bytes). */
  userHandle: Uint8Array | null;
}

export async function softAuthenticator(
  options: { algorithm?: Algorithm; counter?: number } = {},
): Promise<SoftAuthenticator> {
  const algorithm = options.algorithm ?? "ES256";
  const keys = (await crypto.subtle.generateKey(
    algorithm === "ES256"
      ? { name: "ECDSA", namedCurve: "P-256" }
      : {
          name: "RSASSA-PKCS1-v1_5",
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash: "SHA-256",
        },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  return {
    algorithm,
    credentialId: crypto.getRandomValues(new Uint8Array(32)),
    keys,
    counter: options.counter ?? 0,
    userHandle: null,
  };
}

/** The credential's public key as a COSE_Key map (RFC 9053): EC2 P-256 or RSA. */
async function coseKey(authenticator: SoftAuthenticator): Promise<Uint8Array> {
  const jwk = (await crypto.subtle.exportKey("jwk", authenticator.keys.publicKey)) as JsonWebKey;
  if (authenticator.algorithm === "ES256") {
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromBase64url(jwk.x!)],
        [-3, fromBase64url(jwk.y!)],
      ]),
    );
  }
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 3],
      [3, -257],
      [-1, fromBase64url(jwk.n!)],
      [-2, fromBase64url(jwk.e!)],
    ]),
  );
}

/** What a test may bend in what the authenticator and the browser send. */
export interface Bend {
  /** The page's origin the browser reports (clientData.origin). */
  origin: string;
  /** The RP ID whose hash the authenticator signs (default: the origin's host name). */
  rpId?: string;
  /** Replaces the options' challenge (base64url). */
  challenge?: string;
  /** clientData.type (default: the ceremony's own). */
  type?: string;
  /** Whether the authenticator says it verified the user (default true). */
  userVerified?: boolean;
  /** The counter to report instead of the authenticator's next one. */
  counter?: number;
  /** The attestation statement format (default "none", with an empty statement). */
  fmt?: string;
  crossOrigin?: boolean;
}

function clientData(type: string, challenge: string, bend: Bend): Uint8Array {
  return utf8(
    JSON.stringify({
      type: bend.type ?? type,
      challenge: bend.challenge ?? challenge,
      origin: bend.origin,
      crossOrigin: bend.crossOrigin ?? false,
    }),
  );
}

async function authenticatorData(flags: number, counter: number, bend: Bend, attested?: Uint8Array) {
  const rpIdHash = await sha256(utf8(bend.rpId ?? new URL(bend.origin).hostname));
  const uv = bend.userVerified === false ? 0 : FLAG_UV;
  const count = [(counter >>> 24) & 0xff, (counter >> 16) & 0xff, (counter >> 8) & 0xff, counter & 0xff];
  return concat(rpIdHash, [flags | FLAG_UP | uv], count, attested ?? []);
}

/** The JSON the browser sends after `navigator.credentials.create` with these options. */
export async function register(
  authenticator: SoftAuthenticator,
  options: { challenge: string; user: { id: string } },
  bend: Bend,
) {
  authenticator.userHandle = fromBase64url(options.user.id);
  const id = authenticator.credentialId;
  const attested = concat(
    new Uint8Array(16),
    [id.length >> 8, id.length & 0xff],
    id,
    await coseKey(authenticator),
  );
  const authData = await authenticatorData(FLAG_AT, bend.counter ?? authenticator.counter, bend, attested);
  const attestationObject = cbor(
    new Map<Cbor, Cbor>([
      ["fmt", bend.fmt ?? "none"],
      ["attStmt", new Map()],
      ["authData", authData],
    ]),
  );
  return {
    id: base64url(id),
    rawId: base64url(id),
    type: "public-key",
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
    response: {
      clientDataJSON: base64url(clientData("webauthn.create", options.challenge, bend)),
      attestationObject: base64url(attestationObject),
      transports: ["internal", "hybrid"],
    },
  };
}

/** The JSON the browser sends after `navigator.credentials.get` with these options. */
export async function assert(
  authenticator: SoftAuthenticator,
  options: { challenge: string },
  bend: Bend,
  signer: CryptoKey = authenticator.keys.privateKey,
) {
  if (authenticator.counter !== 0) authenticator.counter += 1;
  const authData = await authenticatorData(0, bend.counter ?? authenticator.counter, bend);
  const clientDataJSON = clientData("webauthn.get", options.challenge, bend);
  const message = concat(authData, await sha256(clientDataJSON));
  const signature = new Uint8Array(
    authenticator.algorithm === "ES256"
      ? await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signer, message)
      : await crypto.subtle.sign("RSASSA-PKCS1-v1_5", signer, message),
  );
  return {
    id: base64url(authenticator.credentialId),
    rawId: base64url(authenticator.credentialId),
    type: "public-key",
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
    response: {
      clientDataJSON: base64url(clientDataJSON),
      authenticatorData: base64url(authData),
      signature: base64url(authenticator.algorithm === "ES256" ? derSignature(signature) : signature),
      userHandle: authenticator.userHandle && base64url(authenticator.userHandle),
    },
  };
}
