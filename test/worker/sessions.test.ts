import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  SESSION_ABSOLUTE_S,
  SESSION_IDLE_S,
  clearedSessionCookie,
  createSession,
  readSession,
  revokeAccountSessions,
  revokeSession,
} from "../../src/server/sessions";
import { newAccount, pending, tokenOf, withToken } from "./session-support";

const DAY = 24 * 60 * 60;
const T0 = 1_900_000_000;

/** Signs a new account in at T0; the token and the request that carries it. */
async function signedIn() {
  const accountId = await newAccount();
  const { session, cookie } = await createSession(env.DB, accountId, T0);
  const token = tokenOf(cookie);
  return { accountId, session, cookie, token, request: withToken(token) };
}

const read = (request: Request, now: number, work = pending()) =>
  readSession(env.DB, request, { now, waitUntil: work.waitUntil });

describe("a new session", () => {
  it("is a __Host- cookie: HttpOnly, Secure, SameSite=Lax, Path=/, Max-Age of the idle period", async () => {
    const { cookie, token } = await signedIn();
    expect(cookie).toBe(
      `__Host-session=${token}; Max-Age=${SESSION_IDLE_S}; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("is read back as its account, with no write and no new cookie", async () => {
    const { accountId, request } = await signedIn();
    const work = pending();
    const read1 = await read(request, T0 + 60, work);
    expect(read1).toEqual({
      session: expect.objectContaining({ accountId, expiresAt: T0 + SESSION_IDLE_S }),
    });
    expect(work.count()).toBe(0);
  });

  it("is read with its account's columns and named expressions over it, in one query", async () => {
    const { accountId, request } = await signedIn();
    const read1 = await readSession(env.DB, request, {
      now: T0 + 60,
      waitUntil: () => {},
      also: {
        table: "accounts",
        columns: ["display_name"],
        select: { sessions: "SELECT count(*) FROM sessions WHERE account_id = s.account_id" },
      },
    });
    expect(read1).toMatchObject({
      session: { accountId },
      joined: { display_name: "Session tester", sessions: 1 },
    });
    const both = readSession(env.DB, request, {
      now: T0,
      waitUntil: () => {},
      also: { table: "accounts", columns: ["display_name"], select: { display_name: "'another'" } },
    });
    await expect(both).rejects.toThrow(/select names a column already joined: display_name/);
  });

  it("gets a new token at every sign-in, even for the same account", async () => {
    const accountId = await newAccount();
    const first = tokenOf((await createSession(env.DB, accountId, T0)).cookie);
    const second = tokenOf((await createSession(env.DB, accountId, T0)).cookie);
    expect(second).not.toBe(first);
    expect((await read(withToken(first), T0))?.session.accountId).toBe(accountId);
    expect((await read(withToken(second), T0))?.session.accountId).toBe(accountId);
  });

  it("is stored as the token's SHA-256 only: no column of its row holds the token", async () => {
    const { session, token } = await signedIn();
    const row = await env.DB.prepare("SELECT * FROM sessions WHERE id = ?").bind(session.id).first();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
    expect(row!.id).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""));
    expect(JSON.stringify(row)).not.toContain(token);
    const found = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?1 OR account_id = ?1")
      .bind(token)
      .first<{ n: number }>();
    expect(found!.n).toBe(0);
  });
});

describe("the sliding expiry", () => {
  it("does not move in the first half of the idle period", async () => {
    const { request } = await signedIn();
    const work = pending();
    const result = await read(request, T0 + SESSION_IDLE_S / 2 - 1, work);
    expect(result?.cookie).toBeUndefined();
    expect(work.count()).toBe(0);
  });

  it("slides past half its life: a later expiry in D1 and a cookie with the new Max-Age", async () => {
    const { request, token, session } = await signedIn();
    const now = T0 + 20 * DAY;
    const work = pending();
    const result = await read(request, now, work);
    expect(result?.session.expiresAt).toBe(now + SESSION_IDLE_S);
    expect(result?.cookie).toBe(
      `__Host-session=${token}; Max-Age=${SESSION_IDLE_S}; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
    expect(work.count()).toBe(1);
    await work.settled();
    const row = await env.DB.prepare("SELECT expires_at FROM sessions WHERE id = ?").bind(session.id).first();
    expect(row).toEqual({ expires_at: now + SESSION_IDLE_S });
    // Read again just after: nothing left to slide.
    const again = pending();
    expect((await read(request, now + 60, again))?.cookie).toBeUndefined();
    expect(again.count()).toBe(0);
  });

  it("keeps a visitor who comes back every 20 days signed in, until the absolute limit", async () => {
    const { request } = await signedIn();
    let now = T0;
    while (now + 20 * DAY < T0 + SESSION_ABSOLUTE_S) {
      now += 20 * DAY;
      const work = pending();
      expect(await read(request, now, work), `day ${(now - T0) / DAY}`).not.toBeNull();
      await work.settled();
    }
    expect(await read(request, T0 + SESSION_ABSOLUTE_S)).toBeNull();
  });

  it("never slides past the absolute limit, and the cookie's Max-Age says so", async () => {
    const { request, token, session } = await signedIn();
    // Come back on days 20 and 40: it then expires on day 70.
    for (const day of [20, 40]) {
      const work = pending();
      await read(request, T0 + day * DAY, work);
      await work.settled();
    }
    // On day 62 a slide to day 92 would pass the absolute limit (day 90): it stops there.
    const now = T0 + 62 * DAY;
    const result = await read(request, now);
    expect(result?.session.expiresAt).toBe(session.absoluteExpiresAt);
    expect(result?.cookie).toContain(`__Host-session=${token}; Max-Age=${session.absoluteExpiresAt - now};`);
  });

  it("ends a session not read for the idle period", async () => {
    const { request } = await signedIn();
    // Read early in its life (no slide), then not again until the idle period is over.
    expect(await read(request, T0 + DAY)).not.toBeNull();
    expect(await read(request, T0 + SESSION_IDLE_S)).toBeNull();
    expect(await read(request, T0 + SESSION_IDLE_S + DAY)).toBeNull();
  });
});

describe("signing out", () => {
  it("revokes the one session: its token reads as signed out, the account's others stay", async () => {
    const { accountId, request } = await signedIn();
    const other = tokenOf((await createSession(env.DB, accountId, T0)).cookie);
    await revokeSession(env.DB, request);
    expect(await read(request, T0)).toBeNull();
    expect((await read(withToken(other), T0))?.session.accountId).toBe(accountId);
    expect(clearedSessionCookie()).toBe("__Host-session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax");
  });

  it("everywhere revokes every session of the account and no other account's", async () => {
    const { accountId, request } = await signedIn();
    const second = tokenOf((await createSession(env.DB, accountId, T0)).cookie);
    const stranger = await signedIn();
    await revokeAccountSessions(env.DB, accountId);
    expect(await read(request, T0)).toBeNull();
    expect(await read(withToken(second), T0)).toBeNull();
    expect((await read(stranger.request, T0))?.session.accountId).toBe(stranger.accountId);
  });

  it("clears the account's expired sessions at its next sign-in", async () => {
    const { accountId, session } = await signedIn();
    await createSession(env.DB, accountId, T0 + SESSION_IDLE_S + 1);
    const row = await env.DB.prepare("SELECT id FROM sessions WHERE id = ?").bind(session.id).first();
    expect(row).toBeNull();
  });
});
