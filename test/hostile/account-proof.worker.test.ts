// A stolen session cookie must not become the account: adding or removing a passkey needs a fresh,
// user-verified passkey proof made in that session, and the owner sees what happened (security
// events) and which sessions are signed in (each can be ended alone).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, uniqueName } from "../worker/action-helpers";
import { assert, register, softAuthenticator } from "../support/soft-authenticator";
import {
  cookiesOf,
  formAs,
  getAs,
  postJson,
  signInWith,
  signUp,
  type Fetch,
  type Visitor,
} from "../worker/sign-in-support";
import { exports } from "cloudflare:workers";

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

/** The worker, as a browser with this User-Agent reaches it. */
const as =
  (userAgent: string): Fetch =>
  (url, init) =>
    exports.default.fetch(url, { ...init, headers: { ...init.headers, "User-Agent": userAgent } });

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;
const passkeysOf = (accountId: string) =>
  count("SELECT count(*) AS n FROM passkeys WHERE account_id = ?", accountId);
const challenges = () => count("SELECT count(*) AS n FROM webauthn_challenges");

/** Proves it is the visitor with their passkey, through the page's endpoints; the verify answer. */
async function prove(visitor: Visitor, authenticator = visitor.authenticator, via?: Fetch) {
  const start = await postJson("/account/passkeys/options", { kind: "authenticate" }, visitor.cookie, via);
  expect(start.status).toBe(200);
  const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
  const { options } = (await start.json()) as { options: { challenge: string } };
  const credential = await assert(authenticator, options, { origin: ORIGIN });
  return postJson(
    "/account/passkeys/verify",
    { kind: "authenticate", credential },
    `${visitor.cookie}; ${attempt}`,
    via,
  );
}

/** Adds a new soft passkey to the visitor's account through the page's endpoints; the last answer. */
async function addPasskey(visitor: Visitor, via?: Fetch) {
  const start = await postJson("/account/passkeys/options", { kind: "register" }, visitor.cookie, via);
  if (start.status !== 200) return start;
  const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
  const { options } = (await start.json()) as { options: { challenge: string; user: { id: string } } };
  const credential = await register(await softAuthenticator(), options, { origin: ORIGIN });
  return postJson(
    "/account/passkeys/verify",
    { kind: "register", credential },
    `${visitor.cookie}; ${attempt}`,
    via,
  );
}

const passkeyIds = async (accountId: string) =>
  (
    await env.DB.prepare("SELECT id FROM passkeys WHERE account_id = ? ORDER BY created_at, id")
      .bind(accountId)
      .all<{ id: string }>()
  ).results.map((row) => row.id);

const PROOF_ASKED = /confirm it.s you/i;

describe("adding or removing a passkey without a fresh proof", () => {
  it("is refused (403, asking for proof): no challenge stored, no passkey added", async () => {
    const visitor = await signUp(uniqueName("stolen"));
    const before = await challenges();
    const response = await addPasskey(visitor);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(PROOF_ASKED);
    expect(await challenges()).toBe(before);
    const verify = await postJson(
      "/account/passkeys/verify",
      { kind: "register", credential: {} },
      visitor.cookie,
    );
    expect(verify.status).toBe(403);
    expect(await passkeysOf(visitor.accountId)).toBe(1);
  });

  it("is refused when the proof is older than five minutes", async () => {
    const visitor = await signUp(uniqueName("stale"));
    expect((await prove(visitor)).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET proved_at = proved_at - 301 WHERE account_id = ?")
      .bind(visitor.accountId)
      .run();
    expect((await addPasskey(visitor)).status).toBe(403);
    expect(await passkeysOf(visitor.accountId)).toBe(1);
  });

  it("removing is refused (403, asking for proof), and the passkey stays", async () => {
    const visitor = await signUp(uniqueName("keeps"));
    expect((await prove(visitor)).status).toBe(200);
    expect((await addPasskey(visitor)).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET proved_at = NULL WHERE account_id = ?")
      .bind(visitor.accountId)
      .run();
    const [, second] = await passkeyIds(visitor.accountId);
    const response = await formAs("/account/passkeys", { _action: "remove", id: second! }, visitor.cookie);
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(PROOF_ASKED);
    expect(await passkeysOf(visitor.accountId)).toBe(2);
  });

  it("a proof is the session's own: another session of the account, or another account, gets none", async () => {
    const visitor = await signUp(uniqueName("owner"));
    const other = await signUp(uniqueName("other"));
    const second = cookiesOf(await signInWith(visitor.authenticator))["__Host-session"]!;
    expect((await prove(visitor)).status).toBe(200);
    expect((await addPasskey({ ...visitor, cookie: second })).status).toBe(403);
    // Another account's passkey proves nothing for this one.
    const wrong = await prove(other, visitor.authenticator);
    expect(wrong.status).toBe(400);
    expect((await addPasskey(other)).status).toBe(403);
  });

  it("a sign-in's challenge is not a proof", async () => {
    const visitor = await signUp(uniqueName("signin"));
    const start = await postJson("/sign-in/options", { kind: "authenticate" });
    const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
    const { options } = (await start.json()) as { options: { challenge: string } };
    const credential = await assert(visitor.authenticator, options, { origin: ORIGIN });
    const response = await postJson(
      "/account/passkeys/verify",
      { kind: "authenticate", credential },
      `${visitor.cookie}; ${attempt}`,
    );
    expect(response.status).toBe(400);
    expect((await addPasskey(visitor)).status).toBe(403);
  });
});

describe("with a fresh proof", () => {
  it("adds and removes a passkey, and the account page lists each change with its device", async () => {
    const firefox = as(FIREFOX_WINDOWS);
    const visitor = await signUp(uniqueName("proved"), undefined, firefox);
    const proof = await prove(visitor, visitor.authenticator, firefox);
    expect(proof.status).toBe(200);
    expect(await proof.json()).toEqual({ location: "/account/passkeys" });
    expect((await addPasskey(visitor, firefox)).status).toBe(200);
    expect(await passkeysOf(visitor.accountId)).toBe(2);
    const [, second] = await passkeyIds(visitor.accountId);
    const removed = await formAs(
      "/account/passkeys",
      { _action: "remove", id: second! },
      visitor.cookie,
      firefox,
    );
    expect(removed.status).toBe(303);
    expect(await passkeysOf(visitor.accountId)).toBe(1);

    const page = await (await getAs("/account", visitor.cookie)).text();
    const events = page.slice(page.indexOf('data-testid="security-events"'));
    expect(events).toContain("Passkey added: Passkey 2");
    expect(events).toContain("Passkey removed: Passkey 2");
    expect(events).toContain("Signed in");
    expect(events).toContain("Firefox on Windows");
    // The raw User-Agent is never stored nor shown.
    expect(page).not.toContain("Gecko/20100101");
  });
});

describe("the account's sessions", () => {
  const handles = (page: string) => [...page.matchAll(/name="session" value="([^"]+)"/g)].map((m) => m[1]!);

  it("lists each with its device, and ends one alone", async () => {
    const visitor = await signUp(uniqueName("two devices"), undefined, as(FIREFOX_WINDOWS));
    const phone = cookiesOf(await signInWith(visitor.authenticator, undefined, as(SAFARI_IPHONE)))[
      "__Host-session"
    ]!;
    const page = await (await getAs("/account", visitor.cookie)).text();
    const list = page.slice(page.indexOf('data-testid="sessions"'));
    expect(list).toContain("Firefox on Windows");
    expect(list).toContain("Safari on iPhone");
    expect(list).toContain("This device");
    // This device has no end button (it has Sign out); the phone has one.
    const [handle] = handles(page);
    expect(handles(page)).toHaveLength(1);
    expect(handle).not.toContain(visitor.token);

    // Another account cannot end it.
    const other = await signUp(uniqueName("stranger"));
    const theirs = await formAs("/account", { _action: "endSession", session: handle! }, other.cookie);
    expect(theirs.status).toBe(404);
    expect((await getAs("/account", phone)).status).toBe(200);

    const response = await formAs("/account", { _action: "endSession", session: handle! }, visitor.cookie);
    expect(response.status).toBe(303);
    expect((await getAs("/account", phone)).status).toBe(302);
    expect((await getAs("/account", visitor.cookie)).status).toBe(200);
    const after = await (await getAs("/account", visitor.cookie)).text();
    expect(handles(after)).toEqual([]);
    expect(after.slice(after.indexOf('data-testid="security-events"'))).toContain(
      "Signed out: Safari on iPhone",
    );
  });

  it("sign out everywhere says how many sessions it ended", async () => {
    const visitor = await signUp(uniqueName("everywhere"));
    await signInWith(visitor.authenticator);
    await signInWith(visitor.authenticator);
    const response = await formAs("/account", { _action: "signOutEverywhere" }, visitor.cookie);
    expect(response.status).toBe(303);
    const location = response.headers.get("Location")!;
    expect(location).toBe("/sign-in?ended=3");
    expect(await (await getAs(location)).text()).toContain("Signed out everywhere: 3 sessions ended.");
  });
});
