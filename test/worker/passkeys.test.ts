import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CHALLENGE_TTL_S } from "../../src/app/auth/passkeys.server";
import { p1363Signature } from "../../src/app/auth/passkey-keys.server";
import { accountById, listPasskeys, passkeyById } from "../../src/app/db/accounts.server";
import { createSession, readSession } from "../../src/server/sessions";
import { fromBase64url, softAuthenticator } from "verge/test";
import { registerWith, signInWith, startRegistration, startSignIn, T0 } from "./passkey-support";

describe("registration options", () => {
  it("ask for a discoverable, user-verified passkey for this host, attestation none, ES256 or RS256", async () => {
    const { options, cookie } = await startRegistration({ displayName: "Grace" });
    expect(options).toMatchObject({
      rp: { id: "verge.test", name: "verge" },
      user: { name: "Grace", displayName: "Grace" },
      pubKeyCredParams: [
        { type: "public-key", alg: -7 },
        { type: "public-key", alg: -257 },
      ],
      timeout: CHALLENGE_TTL_S * 1000,
      excludeCredentials: [],
      authenticatorSelection: {
        residentKey: "required",
        requireResidentKey: true,
        userVerification: "required",
      },
      attestation: "none",
    });
    expect(fromBase64url(options.challenge)).toHaveLength(32);
    expect(fromBase64url(options.user.id)).toHaveLength(16);
    expect(cookie).toMatch(
      new RegExp(
        `^__Host-passkey-attempt=[\\w-]{22}; Max-Age=${CHALLENGE_TTL_S}; Path=/; HttpOnly; Secure; SameSite=Strict$`,
      ),
    );
  });

  it("give each attempt its own challenge and cookie", async () => {
    const first = await startSignIn();
    const second = await startSignIn();
    expect(second.options.challenge).not.toBe(first.options.challenge);
    expect(second.cookie).not.toBe(first.cookie);
    expect(first.options).toMatchObject({
      rpId: "verge.test",
      userVerification: "required",
      allowCredentials: [],
    });
  });
});

describe("a passkey, end to end in workerd", () => {
  it("creates the account with its passkey, then signs it in to a session", async () => {
    const key = await softAuthenticator();
    const { result, ceremony } = await registerWith(key, { displayName: "Ada Lovelace" });
    expect(result).toEqual({
      ok: true,
      accountId: ceremony.options.user.id,
      passkeyId: expect.any(String),
      newAccount: true,
    });
    if (!result.ok) return;
    expect(await accountById(env.DB, result.accountId)).toEqual({
      id: result.accountId,
      displayName: "Ada Lovelace",
    });
    expect(await passkeyById(env.DB, result.passkeyId)).toMatchObject({
      accountId: result.accountId,
      algorithm: -7,
      counter: 0,
      transports: ["internal", "hybrid"],
    });

    const signIn = await signInWith(key);
    expect(signIn.result).toEqual({ ok: true, accountId: result.accountId, passkeyId: result.passkeyId });
    const { cookie } = await createSession(env.DB, result.accountId, T0);
    const request = new Request("https://verge.test/account", { headers: { Cookie: cookie.split(";")[0]! } });
    const session = await readSession(env.DB, request, { now: T0, waitUntil: () => {} });
    expect(session?.session.accountId).toBe(result.accountId);
  });

  it("works with an RS256 key (Windows Hello) as with ES256", async () => {
    const key = await softAuthenticator({ algorithm: "RS256" });
    const { result } = await registerWith(key);
    expect(result).toMatchObject({ ok: true });
    expect(
      (await passkeyById(env.DB, key.credentialId && (result as { passkeyId: string }).passkeyId))?.algorithm,
    ).toBe(-257);
    expect((await signInWith(key)).result).toMatchObject({ ok: true });
  });

  it("adds a second device's passkey to a signed-in account; either signs in", async () => {
    const phone = await softAuthenticator();
    const first = await registerWith(phone, { displayName: "Two devices" });
    if (!first.result.ok) throw new Error(first.result.reason);
    const accountId = first.result.accountId;
    const account = (await accountById(env.DB, accountId))!;
    const existing = await listPasskeys(env.DB, accountId);
    const laptop = await softAuthenticator();
    const second = await registerWith(laptop, { account, existing });
    expect(second.ceremony.options.excludeCredentials).toEqual([
      { type: "public-key", id: first.result.passkeyId, transports: ["internal", "hybrid"] },
    ]);
    expect(second.ceremony.options.user.id).toBe(accountId);
    expect(second.result).toMatchObject({ ok: true, accountId, newAccount: false });
    expect((await accountById(env.DB, accountId))?.displayName).toBe("Two devices");
    expect(await listPasskeys(env.DB, accountId)).toHaveLength(2);
    expect((await signInWith(phone)).result).toMatchObject({ ok: true, accountId });
    expect((await signInWith(laptop)).result).toMatchObject({ ok: true, accountId });
  });

  it("stores a counting authenticator's counter and its last use at each sign-in", async () => {
    const key = await softAuthenticator({ counter: 7 });
    const { result } = await registerWith(key);
    if (!result.ok) throw new Error(result.reason);
    expect((await passkeyById(env.DB, result.passkeyId))?.counter).toBe(7);
    expect((await signInWith(key)).result).toMatchObject({ ok: true });
    expect((await signInWith(key)).result).toMatchObject({ ok: true });
    expect((await passkeyById(env.DB, result.passkeyId))?.counter).toBe(9);
    const [listed] = await listPasskeys(env.DB, result.accountId);
    expect(listed?.lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("keeps a synced passkey's counter at 0 and still signs in", async () => {
    const key = await softAuthenticator({ counter: 0 });
    await registerWith(key);
    expect((await signInWith(key)).result).toMatchObject({ ok: true });
    expect((await signInWith(key)).result).toMatchObject({ ok: true });
  });

  it("accepts a verification within the challenge's life", async () => {
    const key = await softAuthenticator();
    const { result } = await registerWith(key, undefined, { verifyAt: T0 + CHALLENGE_TTL_S - 1 });
    expect(result).toMatchObject({ ok: true });
  });
});

describe("an ES256 signature's DER", () => {
  const der = (...ints: number[][]) => {
    const body = ints.flatMap((int) => [0x02, int.length, ...int]);
    return new Uint8Array([0x30, body.length, ...body]);
  };
  const r = [0x80, ...Array.from({ length: 31 }, (_, i) => i + 1)];
  const s = [0x00, 0x7f, ...Array.from({ length: 30 }, (_, i) => 200 - i)];

  it("becomes r || s, padded to 32 bytes each, with DER's sign byte dropped", () => {
    const out = p1363Signature(der([0, ...r], s.slice(1)));
    expect(out && [...out]).toEqual([...r, ...s]);
  });

  it("is refused when it is not exactly two positive INTEGERs of at most 32 bytes in a SEQUENCE", () => {
    const good = der([0, ...r], s.slice(1));
    expect(p1363Signature(new Uint8Array([...good, 0]))).toBeNull();
    expect(p1363Signature(der(r, s.slice(1)))).toBeNull(); // r negative
    expect(p1363Signature(der([1, 0, ...r], s.slice(1)))).toBeNull(); // 34 bytes
    expect(p1363Signature(der([0, ...r]))).toBeNull();
    expect(p1363Signature(new Uint8Array([0x31, ...good.subarray(1)]))).toBeNull();
    expect(p1363Signature(new Uint8Array())).toBeNull();
  });
});
