// Passkey (WebAuthn) registration and sign-in with discoverable credentials: options for the
// browser, then verification of what it sends back (docs/decisions.md, "Sessions and passkeys").
import {
  AttestationStatementFormat,
  ClientDataType,
  parseAttestationObject,
  parseAuthenticatorData,
  parseClientDataJSON,
  type AuthenticatorData,
} from "@oslojs/webauthn";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { D1Session } from "verge";
import {
  addPasskey,
  createAccount,
  passkeyById,
  recordPasskeyUse,
  type Account,
} from "../db/accounts.server";
import { putChallenge, takeChallenge, type CeremonyKind } from "../db/challenges.server";
import { ALGORITHMS, publicKeyInfo, verifyAssertionSignature } from "./passkey-keys.server";
import {
  attemptCookie,
  attemptId,
  newAttemptId,
  type AuthenticationResponse,
  type RegistrationResponse,
} from "./passkey-wire.server";

export {
  clearedAttemptCookie,
  parseAuthenticationResponse,
  parseRegistrationResponse,
} from "./passkey-wire.server";
export type { AuthenticationResponse, RegistrationResponse } from "./passkey-wire.server";

/** How long a ceremony may take, from its options to its verification (seconds). */
export const CHALLENGE_TTL_S = 300;
const RP_NAME = "verge";

/** Why a verification failed: for the log and the tests; the visitor is told only that it did. */
export type PasskeyFailure =
  | "challenge"
  | "malformed"
  | "origin"
  | "rp-id"
  | "user-verification"
  | "attestation"
  | "algorithm"
  | "known-credential"
  | "unknown-credential"
  | "user-handle"
  | "signature"
  | "counter"
  | "account";

export type Verified<T> = ({ ok: true } & T) | { ok: false; reason: PasskeyFailure };

/** Options for `navigator.credentials.*` (JSON form) and the attempt cookie to set with them. */
export interface Ceremony<O> {
  options: O;
  /** The answer's `Set-Cookie`: ties the challenge to this visitor's attempt. */
  cookie: string;
}

const randomBase64url = (bytes: number) =>
  encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));

async function begin(
  db: D1Session,
  kind: CeremonyKind,
  pending: { accountId: string | null; displayName: string | null },
  now: number,
) {
  const attempt = newAttemptId();
  const challenge = randomBase64url(32);
  await putChallenge(db, attempt, { kind, challenge, ...pending }, now + CHALLENGE_TTL_S, now);
  return { challenge, cookie: attemptCookie(attempt, CHALLENGE_TTL_S) };
}

/**
 * Who registers: a new account with its display name, or a signed-in account adding a passkey.
 * A display name is 1 to 60 characters, trimmed: the page's schema checks it (D1 refuses others).
 */
export type Registrant =
  { displayName: string } | { account: Account; existing: { id: string; transports: string[] }[] };

/** Options to create a discoverable passkey (`PublicKeyCredential.parseCreationOptionsFromJSON`). */
export async function registrationOptions(db: D1Session, url: URL, who: Registrant, now: number) {
  const account = "account" in who ? who.account : { id: randomBase64url(16), displayName: who.displayName };
  const { challenge, cookie } = await begin(
    db,
    "register",
    { accountId: account.id, displayName: "account" in who ? null : account.displayName },
    now,
  );
  const options = {
    rp: { id: url.hostname, name: RP_NAME },
    user: { id: account.id, name: account.displayName, displayName: account.displayName },
    challenge,
    pubKeyCredParams: ALGORITHMS.map((alg) => ({ type: "public-key" as const, alg })),
    timeout: CHALLENGE_TTL_S * 1000,
    excludeCredentials: ("existing" in who ? who.existing : []).map(({ id, transports }) => ({
      type: "public-key" as const,
      id,
      transports,
    })),
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    },
    attestation: "none",
  } as const;
  return { options, cookie } satisfies Ceremony<unknown>;
}

/**
 * Options to sign in with any discoverable passkey for this site (`parseRequestOptionsFromJSON`),
 * or, given `prover`, for the signed-in account to prove it is its owner with one of its own
 * passkeys: that challenge is kept with the account, so it verifies only as that account's proof
 * (and a sign-in's never does).
 */
export async function authenticationOptions(
  db: D1Session,
  url: URL,
  now: number,
  prover?: { accountId: string; existing: { id: string; transports: string[] }[] },
) {
  const pending = { accountId: prover?.accountId ?? null, displayName: null };
  const { challenge, cookie } = await begin(db, "authenticate", pending, now);
  const options = {
    challenge,
    rpId: url.hostname,
    timeout: CHALLENGE_TTL_S * 1000,
    userVerification: "required",
    allowCredentials: (prover?.existing ?? []).map(({ id, transports }) => ({
      type: "public-key" as const,
      id,
      transports,
    })),
  } as const;
  return { options, cookie } satisfies Ceremony<unknown>;
}

/** The checks both ceremonies make on the client data and the authenticator data. */
function checkCommon(
  url: URL,
  type: ClientDataType,
  challenge: string,
  clientDataJSON: Uint8Array,
  authenticatorData: AuthenticatorData,
): PasskeyFailure | null {
  const client = parseClientDataJSON(clientDataJSON);
  if (client.type !== type || encodeBase64urlNoPadding(client.challenge) !== challenge) return "challenge";
  if (client.origin !== url.origin || client.crossOrigin === true) return "origin";
  if (!authenticatorData.verifyRelyingPartyIdHash(url.hostname)) return "rp-id";
  if (!authenticatorData.userPresent || !authenticatorData.userVerified) return "user-verification";
  return null;
}

/**
 * Verifies a new passkey and stores it: a new account with it, or another passkey of the account
 * that asked. The attempt's challenge is taken first, so it is spent whatever the outcome.
 * `name` is the passkey's name on the account page (1 to 60 characters, e.g. "Passkey 2");
 * `signedIn` the account of the request's session, if any: a passkey is added to an existing
 * account only while that account is still the one signed in.
 */
export async function verifyRegistration(
  db: D1Session,
  request: Request,
  response: RegistrationResponse,
  { name, signedIn, now }: { name: string; signedIn: string | null; now: number },
): Promise<Verified<{ accountId: string; passkeyId: string; newAccount: boolean }>> {
  const attempt = attemptId(request);
  const pending = attempt && (await takeChallenge(db, attempt, "register", now));
  if (!pending || !pending.accountId) return { ok: false, reason: "challenge" };
  if (pending.displayName === null && pending.accountId !== signedIn) return { ok: false, reason: "account" };
  let attestation;
  try {
    attestation = parseAttestationObject(response.attestationObject);
    const failed = checkCommon(
      new URL(request.url),
      ClientDataType.Create,
      pending.challenge,
      response.clientDataJSON,
      attestation.authenticatorData,
    );
    if (failed) return { ok: false, reason: failed };
  } catch {
    return { ok: false, reason: "malformed" };
  }
  // Attestation "none" was asked for: a statement of another format would be one verge cannot check.
  if (attestation.attestationStatement.format !== AttestationStatementFormat.None) {
    return { ok: false, reason: "attestation" };
  }
  const credential = attestation.authenticatorData.credential;
  if (!credential || encodeBase64urlNoPadding(credential.id) !== response.id || credential.id.length > 1023) {
    return { ok: false, reason: "malformed" };
  }
  const key = await publicKeyInfo(credential.publicKey);
  if (!key) return { ok: false, reason: "algorithm" };
  if (await passkeyById(db, response.id)) return { ok: false, reason: "known-credential" };
  const passkey = {
    id: response.id,
    publicKey: key.spki,
    algorithm: key.algorithm,
    counter: attestation.authenticatorData.signatureCounter,
    transports: response.transports,
    name,
  };
  const accountId = pending.accountId;
  if (pending.displayName !== null) {
    await createAccount(db, { id: accountId, displayName: pending.displayName }, passkey);
  } else {
    await addPasskey(db, accountId, passkey);
  }
  return { ok: true, accountId, passkeyId: passkey.id, newAccount: pending.displayName !== null };
}

/**
 * Verifies a sign-in with a discoverable passkey and records its use. The caller then signs the
 * account in (createSession). The attempt's challenge is taken first, so it is spent whatever the outcome.
 * `prover`: the signed-in account proving it is its owner (its options named it), or null for a sign-in.
 */
export async function verifyAuthentication(
  db: D1Session,
  request: Request,
  response: AuthenticationResponse,
  now: number,
  prover: string | null = null,
): Promise<Verified<{ accountId: string; passkeyId: string }>> {
  const attempt = attemptId(request);
  const pending = attempt && (await takeChallenge(db, attempt, "authenticate", now));
  if (!pending || pending.accountId !== prover) return { ok: false, reason: "challenge" };
  let authenticatorData;
  try {
    authenticatorData = parseAuthenticatorData(response.authenticatorData);
    const failed = checkCommon(
      new URL(request.url),
      ClientDataType.Get,
      pending.challenge,
      response.clientDataJSON,
      authenticatorData,
    );
    if (failed) return { ok: false, reason: failed };
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const passkey = await passkeyById(db, response.id);
  if (!passkey) return { ok: false, reason: "unknown-credential" };
  // Discoverable sign-in: the authenticator names the account, and it must be the passkey's own. A
  // proof names its credentials (allowCredentials), and an authenticator may then leave the handle out.
  const handle = response.userHandle ?? (prover !== null ? passkey.accountId : null);
  if (handle !== passkey.accountId) return { ok: false, reason: "user-handle" };
  if (prover !== null && passkey.accountId !== prover) return { ok: false, reason: "account" };
  const signed = await verifyAssertionSignature(
    passkey.publicKey,
    passkey.algorithm,
    response.authenticatorData,
    response.clientDataJSON,
    response.signature,
  );
  if (!signed) return { ok: false, reason: "signature" };
  // A counter that does not move forward (while either side counts) may be a cloned authenticator.
  const counter = authenticatorData.signatureCounter;
  if ((counter !== 0 || passkey.counter !== 0) && counter <= passkey.counter) {
    return { ok: false, reason: "counter" };
  }
  if (!(await recordPasskeyUse(db, passkey.id, counter, passkey.counter)))
    return { ok: false, reason: "counter" };
  return { ok: true, accountId: passkey.accountId, passkeyId: passkey.id };
}
