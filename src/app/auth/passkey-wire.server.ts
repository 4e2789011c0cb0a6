// What crosses the wire in a passkey ceremony: the attempt cookie, and the browser's credential
// (`PublicKeyCredential.toJSON()`, the shape @simplewebauthn/browser sends too) read from unknown JSON.
import { parse, serialize } from "hono/utils/cookie";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

/** The visitor's pending attempt: the challenge kept in D1 is theirs only while this cookie is. */
export const ATTEMPT_COOKIE = "__Host-passkey-attempt";
/** 16 random bytes in base64url. */
const ATTEMPT = /^[A-Za-z0-9_-]{22}$/;

export const newAttemptId = () => encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(16)));

/** The attempt cookie (`Max-Age` the challenge's life). Strict: only the site's own pages send it. */
export function attemptCookie(id: string, maxAge: number): string {
  return serialize(ATTEMPT_COOKIE, id, {
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: "/",
    maxAge,
  });
}

/** Clears the attempt cookie (after a verification, whatever its outcome: its challenge is spent). */
export const clearedAttemptCookie = () => attemptCookie("", 0);

/** The request's attempt id, if its cookie has the shape of one. */
export function attemptId(request: Request): string | null {
  const header = request.headers.get("Cookie");
  const id = header ? parse(header, ATTEMPT_COOKIE)[ATTEMPT_COOKIE] : undefined;
  return id !== undefined && ATTEMPT.test(id) ? id : null;
}

export interface RegistrationResponse {
  /** The credential id, base64url without padding. */
  id: string;
  clientDataJSON: Uint8Array;
  attestationObject: Uint8Array;
  transports: string[];
}

export interface AuthenticationResponse {
  id: string;
  clientDataJSON: Uint8Array;
  authenticatorData: Uint8Array;
  signature: Uint8Array;
  /** The account id the authenticator keeps (base64url), or null if it sent none. */
  userHandle: string | null;
}

const TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);
/** No part of a credential is anywhere near this long; a larger one is refused before decoding. */
const MAX_FIELD = 16 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

function bytes(value: unknown): Uint8Array | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_FIELD) return null;
  try {
    return decodeBase64urlIgnorePadding(value);
  } catch {
    return null;
  }
}

/** The credential's id, in the one spelling stored rows use (no padding), if id and rawId agree. */
function credentialId(json: Record<string, unknown>): string | null {
  const id = bytes(json.id);
  const rawId = bytes(json.rawId);
  if (!id || !rawId || json.type !== "public-key") return null;
  const canonical = encodeBase64urlNoPadding(id);
  return canonical === encodeBase64urlNoPadding(rawId) ? canonical : null;
}

/** A registration credential from the browser, or null for anything else (never a throw). */
export function parseRegistrationResponse(json: unknown): RegistrationResponse | null {
  if (!isObject(json) || !isObject(json.response)) return null;
  const id = credentialId(json);
  const clientDataJSON = bytes(json.response.clientDataJSON);
  const attestationObject = bytes(json.response.attestationObject);
  if (!id || !clientDataJSON || !attestationObject) return null;
  const reported = Array.isArray(json.response.transports) ? json.response.transports : [];
  const transports = reported.filter((t): t is string => typeof t === "string" && TRANSPORTS.has(t));
  return { id, clientDataJSON, attestationObject, transports: [...new Set(transports)] };
}

/** A sign-in credential from the browser, or null for anything else (never a throw). */
export function parseAuthenticationResponse(json: unknown): AuthenticationResponse | null {
  if (!isObject(json) || !isObject(json.response)) return null;
  const id = credentialId(json);
  const clientDataJSON = bytes(json.response.clientDataJSON);
  const authenticatorData = bytes(json.response.authenticatorData);
  const signature = bytes(json.response.signature);
  if (!id || !clientDataJSON || !authenticatorData || !signature) return null;
  const handle = json.response.userHandle == null ? null : bytes(json.response.userHandle);
  if (json.response.userHandle != null && !handle) return null;
  return {
    id,
    clientDataJSON,
    authenticatorData,
    signature,
    userHandle: handle && encodeBase64urlNoPadding(handle),
  };
}
