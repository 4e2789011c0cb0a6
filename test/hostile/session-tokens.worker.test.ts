// Hostile session cookies: each is a signed-out visitor (null), never a throw, and a token of
// the wrong shape costs no D1 query at all.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  SESSION_ABSOLUTE_S,
  SESSION_COOKIE,
  SESSION_IDLE_S,
  createSession,
  newSessionToken,
  readSession,
  revokeAccountSessions,
  revokeSession,
} from "../../src/server/sessions";
import type { D1Session } from "../../src/shared/route-module";
import { newAccount, pending, tokenOf, withToken } from "../worker/session-support";

const T0 = 1_900_000_000;

/** env.DB, counting the statements run through it. */
function counted() {
  let queries = 0;
  const db: D1Session = {
    prepare: (sql: string) => {
      queries += 1;
      return env.DB.prepare(sql);
    },
    batch: (statements) => env.DB.batch(statements),
  };
  return { db, queries: () => queries };
}

const cookie = (value: string) => new Request("https://verge.test/", { headers: { Cookie: value } });
const read = (db: D1Session, request: Request, now = T0) =>
  readSession(db, request, { now, waitUntil: () => {} });

async function signedIn() {
  const accountId = await newAccount("Hostile");
  const { cookie: setCookie, session } = await createSession(env.DB, accountId, T0);
  return { accountId, session, token: tokenOf(setCookie) };
}

describe("a session cookie that names no session", () => {
  const wrongShapes: [string, string][] = [
    ["no cookie header", ""],
    ["another cookie only", "theme=dark"],
    ["an empty token", `${SESSION_COOKIE}=`],
    ["a truncated token", `${SESSION_COOKIE}=${newSessionToken().slice(0, 42)}`],
    ["a token one character long", `${SESSION_COOKIE}=${newSessionToken()}x`],
    ["a UUID", `${SESSION_COOKIE}=${crypto.randomUUID()}`],
    ["base64 with padding", `${SESSION_COOKIE}=${btoa("x".repeat(31))}`],
    ["a JWT", `${SESSION_COOKIE}=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.`],
    ["SQL", `${SESSION_COOKIE}=' OR 1=1 --`],
    ["broken percent-encoding", `${SESSION_COOKIE}=%E0%A4%A`],
    ["non-ASCII", `${SESSION_COOKIE}=${"é".repeat(43)}`],
    ["a 10 kB value", `${SESSION_COOKIE}=${"a".repeat(10_000)}`],
    ["the name without the __Host- prefix", `session=${newSessionToken()}`],
  ];
  for (const [what, header] of wrongShapes) {
    it(`is signed out, with no D1 query: ${what}`, async () => {
      const { db, queries } = counted();
      const request = header ? cookie(header) : new Request("https://verge.test/");
      await expect(read(db, request)).resolves.toBeNull();
      expect(queries()).toBe(0);
    });
  }

  it("is signed out with one D1 query for a well-formed token no one was given (forged)", async () => {
    const { db, queries } = counted();
    await expect(read(db, withToken(newSessionToken()))).resolves.toBeNull();
    expect(queries()).toBe(1);
  });

  it("is signed out for the session's id (its hash, as a copy of the table would give it)", async () => {
    const { session } = await signedIn();
    await expect(read(env.DB, cookie(`${SESSION_COOKIE}=${session.id}`))).resolves.toBeNull();
  });

  it("is signed out for a token with one character changed", async () => {
    const { token } = await signedIn();
    const last = token.at(-1) === "A" ? "B" : "A";
    await expect(read(env.DB, withToken(token.slice(0, -1) + last))).resolves.toBeNull();
  });

  it("is signed out once expired (idle or absolute) and once revoked, alone or everywhere", async () => {
    const idle = await signedIn();
    await expect(read(env.DB, withToken(idle.token), T0 + SESSION_IDLE_S)).resolves.toBeNull();
    const absolute = await signedIn();
    await env.DB.prepare("UPDATE sessions SET expires_at = absolute_expires_at WHERE id = ?")
      .bind(absolute.session.id)
      .run();
    await expect(read(env.DB, withToken(absolute.token), T0 + SESSION_ABSOLUTE_S)).resolves.toBeNull();
    const revoked = await signedIn();
    await revokeSession(env.DB, withToken(revoked.token));
    await expect(read(env.DB, withToken(revoked.token))).resolves.toBeNull();
    const everywhere = await signedIn();
    await revokeAccountSessions(env.DB, everywhere.accountId);
    await expect(read(env.DB, withToken(everywhere.token))).resolves.toBeNull();
  });

  it("reads a token as its own account only, with one query however many cookies came", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const { db, queries } = counted();
    const both = cookie(`${SESSION_COOKIE}=${first.token}; a=1; b=2; c=3`);
    expect((await read(db, both))?.session.accountId).toBe(first.accountId);
    expect((await read(db, withToken(second.token)))?.session.accountId).toBe(second.accountId);
    expect(queries()).toBe(2);
  });

  it("revoking with a malformed or unknown cookie changes nothing and does not throw", async () => {
    const kept = await signedIn();
    await revokeSession(env.DB, cookie(`${SESSION_COOKIE}=' OR 1=1 --`));
    await revokeSession(env.DB, withToken(newSessionToken()));
    await revokeSession(env.DB, new Request("https://verge.test/"));
    expect((await read(env.DB, withToken(kept.token)))?.session.accountId).toBe(kept.accountId);
  });
});

describe("the sliding write", () => {
  it("goes through waitUntil: the read itself is one query", async () => {
    const { token } = await signedIn();
    const { db, queries } = counted();
    const work = pending();
    const result = await readSession(db, withToken(token), {
      now: T0 + SESSION_IDLE_S - 60,
      waitUntil: work.waitUntil,
    });
    expect(result?.cookie).toBeDefined();
    expect(work.count()).toBe(1);
    await work.settled();
    // The read's SELECT, then the UPDATE handed to waitUntil.
    expect(queries()).toBe(2);
  });
});

describe("the token in logs", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is never written to the console by sign-in, reads, slides or sign-out, nor anything else", async () => {
    const written: unknown[][] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void written.push(args));
    }
    const accountId = await newAccount("Quiet");
    const { cookie: setCookie } = await createSession(env.DB, accountId, T0);
    const token = tokenOf(setCookie);
    const work = pending();
    await readSession(env.DB, withToken(token), { now: T0 + SESSION_IDLE_S - 1, waitUntil: work.waitUntil });
    await work.settled();
    await read(env.DB, withToken(newSessionToken()));
    await read(env.DB, cookie(`${SESSION_COOKIE}=' OR 1=1 --`));
    await revokeSession(env.DB, withToken(token));
    await revokeAccountSessions(env.DB, accountId);
    expect(written).toEqual([]);
  });
});
