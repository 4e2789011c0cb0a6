// Hostile passkey ceremonies: each is refused with its reason, changes nothing it should not, and
// never throws. The data is real WebAuthn (test/support/soft-authenticator.ts), bent one way at a time.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  CHALLENGE_TTL_S,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  verifyAuthentication,
  verifyRegistration,
} from "../../src/app/auth/passkeys.server";
import { accountById, passkeyById } from "../../src/app/db/accounts.server";
import { assert, base64url, register, softAuthenticator } from "verge/test";
import {
  post,
  registerWith,
  signInWith,
  SITE,
  startRegistration,
  startSignIn,
  T0,
} from "../worker/passkey-support";

/** A registered authenticator and its account id. */
async function registered(options: { counter?: number } = {}) {
  const key = await softAuthenticator(options);
  const { result } = await registerWith(key);
  if (!result.ok) throw new Error(result.reason);
  return { key, accountId: result.accountId, passkeyId: result.passkeyId };
}

describe("a replayed or misdirected challenge", () => {
  it("refuses the same sign-in sent twice: the challenge is spent by the first", async () => {
    const { key } = await registered();
    const { ceremony, response, result } = await signInWith(key);
    expect(result).toMatchObject({ ok: true });
    expect(await verifyAuthentication(env.DB, post(ceremony.cookie), response, T0)).toEqual({
      ok: false,
      reason: "challenge",
    });
  });

  it("refuses the same registration sent twice, and stores one account", async () => {
    const key = await softAuthenticator();
    const { ceremony, response, result } = await registerWith(key, { displayName: "Once" });
    expect(result).toMatchObject({ ok: true });
    const again = await verifyRegistration(env.DB, post(ceremony.cookie), response, {
      name: "again",
      signedIn: null,
      now: T0,
    });
    expect(again).toEqual({ ok: false, reason: "challenge" });
  });

  it("refuses an assertion over another attempt's challenge, and spends this attempt's", async () => {
    const { key } = await registered();
    const mine = await startSignIn();
    const theirs = await startSignIn();
    const json = await assert(key, theirs.options, { origin: SITE });
    const response = parseAuthenticationResponse(json)!;
    expect(await verifyAuthentication(env.DB, post(mine.cookie), response, T0)).toEqual({
      ok: false,
      reason: "challenge",
    });
    // Mine is spent even though it failed; theirs still works with their cookie.
    const fresh = await assert(key, mine.options, { origin: SITE });
    expect(
      await verifyAuthentication(env.DB, post(mine.cookie), parseAuthenticationResponse(fresh)!, T0),
    ).toMatchObject({ ok: false, reason: "challenge" });
    expect(await verifyAuthentication(env.DB, post(theirs.cookie), response, T0)).toMatchObject({ ok: true });
  });

  it("refuses a verification without the attempt cookie, or with a forged one", async () => {
    const { key } = await registered();
    const ceremony = await startSignIn();
    const response = parseAuthenticationResponse(await assert(key, ceremony.options, { origin: SITE }))!;
    expect(await verifyAuthentication(env.DB, post(null), response, T0)).toEqual({
      ok: false,
      reason: "challenge",
    });
    const forged = `__Host-passkey-attempt=${base64url(crypto.getRandomValues(new Uint8Array(16)))}; Path=/`;
    expect(await verifyAuthentication(env.DB, post(forged), response, T0)).toEqual({
      ok: false,
      reason: "challenge",
    });
    const malformed = "__Host-passkey-attempt=' OR 1=1 --; Path=/";
    expect(await verifyAuthentication(env.DB, post(malformed), response, T0)).toEqual({
      ok: false,
      reason: "challenge",
    });
  });

  it("refuses a challenge past its life", async () => {
    const { key } = await registered();
    const late = await signInWith(key, { verifyAt: T0 + CHALLENGE_TTL_S });
    expect(late.result).toEqual({ ok: false, reason: "challenge" });
    const key2 = await softAuthenticator();
    expect((await registerWith(key2, undefined, { verifyAt: T0 + CHALLENGE_TTL_S })).result).toEqual({
      ok: false,
      reason: "challenge",
    });
    expect(await passkeyById(env.DB, base64url(key2.credentialId))).toBeNull();
  });

  it("refuses a registration's challenge used to sign in, and a bent challenge or type", async () => {
    const { key } = await registered();
    const registration = await startRegistration({ displayName: "Mixed" });
    const json = await assert(key, registration.options, { origin: SITE });
    expect(
      await verifyAuthentication(env.DB, post(registration.cookie), parseAuthenticationResponse(json)!, T0),
    ).toEqual({
      ok: false,
      reason: "challenge",
    });
    const bent = base64url(crypto.getRandomValues(new Uint8Array(32)));
    expect((await signInWith(key, { bend: { challenge: bent } })).result).toEqual({
      ok: false,
      reason: "challenge",
    });
    expect((await signInWith(key, { bend: { type: "webauthn.create" } })).result).toEqual({
      ok: false,
      reason: "challenge",
    });
  });
});

describe("an assertion for another site", () => {
  it("refuses another origin in the client data, at registration and at sign-in", async () => {
    const evil = { origin: "https://evil.example", rpId: "verge.test" };
    const key = await softAuthenticator();
    expect((await registerWith(key, undefined, { bend: evil })).result).toEqual({
      ok: false,
      reason: "origin",
    });
    expect(await passkeyById(env.DB, base64url(key.credentialId))).toBeNull();
    const { key: mine } = await registered();
    expect((await signInWith(mine, { bend: evil })).result).toEqual({ ok: false, reason: "origin" });
    const sibling = { origin: "https://sub.verge.test", rpId: "verge.test" };
    expect((await signInWith(mine, { bend: sibling })).result).toEqual({ ok: false, reason: "origin" });
    const http = { origin: "http://verge.test" };
    expect((await signInWith(mine, { bend: http })).result).toEqual({ ok: false, reason: "origin" });
    expect((await signInWith(mine, { bend: { crossOrigin: true } })).result).toEqual({
      ok: false,
      reason: "origin",
    });
  });

  it("refuses another RP ID's hash in the authenticator data", async () => {
    const key = await softAuthenticator();
    const other = { rpId: "evil.example" };
    expect((await registerWith(key, undefined, { bend: other })).result).toEqual({
      ok: false,
      reason: "rp-id",
    });
    const { key: mine } = await registered();
    expect((await signInWith(mine, { bend: other })).result).toEqual({ ok: false, reason: "rp-id" });
  });

  it("refuses a response made for this site when it is sent to another host", async () => {
    const { key } = await registered();
    const ceremony = await startSignIn();
    const response = parseAuthenticationResponse(await assert(key, ceremony.options, { origin: SITE }))!;
    const elsewhere = post(ceremony.cookie, "https://verge-copy.example");
    expect(await verifyAuthentication(env.DB, elsewhere, response, T0)).toEqual({
      ok: false,
      reason: "origin",
    });
  });
});

describe("a credential that is not what it says", () => {
  it("refuses an unknown credential", async () => {
    const stranger = await softAuthenticator();
    stranger.userHandle = crypto.getRandomValues(new Uint8Array(16));
    expect((await signInWith(stranger)).result).toEqual({ ok: false, reason: "unknown-credential" });
  });

  it("refuses a signature by another key than the passkey's", async () => {
    const { key } = await registered();
    const thief = await softAuthenticator();
    expect((await signInWith(key, { signer: thief.keys.privateKey })).result).toEqual({
      ok: false,
      reason: "signature",
    });
  });

  it("refuses a user handle naming another account than the passkey's", async () => {
    const { key } = await registered();
    const other = await registered();
    key.userHandle = other.key.userHandle;
    expect((await signInWith(key)).result).toEqual({ ok: false, reason: "user-handle" });
    key.userHandle = null;
    expect((await signInWith(key)).result).toEqual({ ok: false, reason: "user-handle" });
  });

  it("refuses a counter that goes backwards or stands still, and keeps the stored one", async () => {
    const { key, passkeyId } = await registered({ counter: 5 });
    expect((await signInWith(key, { bend: { counter: 3 } })).result).toEqual({
      ok: false,
      reason: "counter",
    });
    expect((await signInWith(key, { bend: { counter: 5 } })).result).toEqual({
      ok: false,
      reason: "counter",
    });
    expect((await passkeyById(env.DB, passkeyId))?.counter).toBe(5);
    // A counter of 0 from a key that counted is a reset (or a clone): refused too.
    expect((await signInWith(key, { bend: { counter: 0 } })).result).toEqual({
      ok: false,
      reason: "counter",
    });
    expect((await signInWith(key, { bend: { counter: 6 } })).result).toMatchObject({ ok: true });
  });

  it("refuses an authenticator that did not verify the user", async () => {
    const key = await softAuthenticator();
    expect((await registerWith(key, undefined, { bend: { userVerified: false } })).result).toEqual({
      ok: false,
      reason: "user-verification",
    });
    const { key: mine } = await registered();
    expect((await signInWith(mine, { bend: { userVerified: false } })).result).toEqual({
      ok: false,
      reason: "user-verification",
    });
  });

  it("refuses an attestation statement other than 'none'", async () => {
    const key = await softAuthenticator();
    expect((await registerWith(key, undefined, { bend: { fmt: "packed" } })).result).toEqual({
      ok: false,
      reason: "attestation",
    });
  });

  it("refuses a credential id registered already, and leaves its account as it was", async () => {
    const { key, accountId } = await registered();
    const again = await registerWith(key, { displayName: "Hijack" });
    expect(again.result).toEqual({ ok: false, reason: "known-credential" });
    expect((await passkeyById(env.DB, base64url(key.credentialId)))?.accountId).toBe(accountId);
    expect(await accountById(env.DB, again.ceremony.options.user.id)).toBeNull();
  });
});

describe("adding a passkey to an account", () => {
  it("is refused once that account is no longer the one signed in, and adds nothing", async () => {
    const { accountId } = await registered();
    const account = (await accountById(env.DB, accountId))!;
    const other = await registered();
    for (const signedIn of [null, other.accountId]) {
      const laptop = await softAuthenticator();
      const { result } = await registerWith(laptop, { account, existing: [] }, { signedIn });
      expect(result).toEqual({ ok: false, reason: "account" });
      expect(await passkeyById(env.DB, base64url(laptop.credentialId))).toBeNull();
    }
  });
});

describe("malformed credentials", () => {
  it("parse to null, never a throw", () => {
    const bad: unknown[] = [
      null,
      "x",
      [],
      {},
      { id: "AA", rawId: "AA", type: "public-key" },
      {
        id: "AA",
        rawId: "AB",
        type: "public-key",
        response: { clientDataJSON: "AA", attestationObject: "AA" },
      },
      { id: "AA", rawId: "AA", type: "other", response: { clientDataJSON: "AA", attestationObject: "AA" } },
      {
        id: "!!",
        rawId: "!!",
        type: "public-key",
        response: { clientDataJSON: "AA", attestationObject: "AA" },
      },
      {
        id: "AA",
        rawId: "AA",
        type: "public-key",
        response: { clientDataJSON: "A".repeat(20_000), attestationObject: "AA" },
      },
    ];
    for (const json of bad) {
      expect(parseRegistrationResponse(json)).toBeNull();
      expect(parseAuthenticationResponse(json)).toBeNull();
    }
  });

  it("that parse but hold garbage bytes are refused as malformed", async () => {
    const registration = await startRegistration({ displayName: "Garbage" });
    const garbage = base64url(crypto.getRandomValues(new Uint8Array(64)));
    const response = parseRegistrationResponse({
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: garbage, attestationObject: garbage },
    })!;
    expect(
      await verifyRegistration(env.DB, post(registration.cookie), response, {
        name: "x",
        signedIn: null,
        now: T0,
      }),
    ).toEqual({
      ok: false,
      reason: "malformed",
    });
    const { key } = await registered();
    const signIn = await startSignIn();
    const json = await assert(key, signIn.options, { origin: SITE });
    json.response.signature = garbage;
    expect(
      await verifyAuthentication(env.DB, post(signIn.cookie), parseAuthenticationResponse(json)!, T0),
    ).toEqual({
      ok: false,
      reason: "signature",
    });
  });

  it("refuses a registration whose id is not the attested credential's", async () => {
    const key = await softAuthenticator();
    const ceremony = await startRegistration({ displayName: "Mismatch" });
    const json = await register(key, ceremony.options, { origin: SITE });
    json.id = json.rawId = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const result = await verifyRegistration(env.DB, post(ceremony.cookie), parseRegistrationResponse(json)!, {
      name: "x",
      signedIn: null,
      now: T0,
    });
    expect(result).toEqual({ ok: false, reason: "malformed" });
  });
});
