// Hostile visitors of the signed-in product: tokens that are not a live session's, posts from other
// sites, and what a session must never leak (the token in a log line, a report or a page; one
// visitor's name in another's cached guestbook).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSession, nowSeconds, SESSION_ABSOLUTE_S, SESSION_IDLE_S } from "../../src/server/sessions";
import type { ErrorReport } from "../../src/server/context";
import { productApp } from "../worker/apps";
import { ORIGIN, uniqueName, visitorIp } from "../worker/action-helpers";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";
import { cookiesOf, register, softAuthenticator, visitor, type Send } from "verge/test";

const lines: string[] = [];
const reports: ErrorReport[] = [];
const app = productApp({
  reportError: (report) => void reports.push(report),
  log: (line) => lines.push(line),
});

/** The product app of this file (its log lines kept), with every waitUntil settled. */
const via: Send = async (url, init) => {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(url, init), env, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
};

/** A visitor of this file's app, with `cookie` (a session's, a forged one, or none). */
const as = (cookie = "") => visitor({ cookie, fetch: via });

const SESSION = "__Host-session";
const lastLine = () => JSON.parse(lines.at(-1)!) as Record<string, unknown>;

/** What a visitor carrying `cookie` sees: signed out, never an error. */
async function expectSignedOut(cookie: string) {
  const account = await as(cookie).get("/account");
  expect(account.status).toBe(302);
  expect(account.headers.get("Location")).toBe("/sign-in?next=%2Faccount");
  const guestbook = await as(cookie).get("/guestbook");
  expect(guestbook.status).toBe(200);
  expect(await guestbook.text()).not.toContain("Signed in as");
  const data = await as(cookie).data("/account");
  expect(await data.json()).toEqual({ redirect: "/sign-in?next=%2Faccount" });
}

describe("a session token that names no live session is a signed-out visitor, never a 5xx", () => {
  it("forged, truncated, padded, of another shape", async () => {
    const visitor = await as().signUp(uniqueName("real"));
    const forged = `${SESSION}=${"A".repeat(43)}`;
    const truncated = `${SESSION}=${visitor.token.slice(0, 42)}`;
    const longer = `${SESSION}=${visitor.token}A`;
    const odd = `${SESSION}=${visitor.token.slice(0, 40)}%00%0A;`;
    for (const cookie of [forged, truncated, longer, odd, `${SESSION}=`, `${SESSION}="${visitor.token}x"`]) {
      await expectSignedOut(cookie);
    }
    expect(reports).toEqual([]);
  });

  it("expired (past its idle limit, and past its absolute limit)", async () => {
    const visitor = await as().signUp(uniqueName("old"));
    const idle = await createSession(env.DB, visitor.accountId, nowSeconds() - SESSION_IDLE_S - 5);
    const absolute = await createSession(env.DB, visitor.accountId, nowSeconds() - SESSION_ABSOLUTE_S - 5);
    await expectSignedOut(idle.cookie.split(";")[0]!);
    await expectSignedOut(absolute.cookie.split(";")[0]!);
    expect(reports).toEqual([]);
  });

  it("revoked (signed out), and of an account that is gone", async () => {
    const visitor = await as().signUp(uniqueName("revoked"));
    expect((await as(visitor.session).form("/account", { _action: "signOut" })).status).toBe(303);
    await expectSignedOut(visitor.session);
    const gone = await as().signUp(uniqueName("gone"));
    await env.DB.prepare("DELETE FROM accounts WHERE id = ?").bind(gone.accountId).run();
    await expectSignedOut(gone.session);
    expect(reports).toEqual([]);
  });

  it("another account's token is that account, never this one", async () => {
    const ada = uniqueName("Ada");
    const bob = uniqueName("Bob");
    await as().signUp(ada);
    const other = await as().signUp(bob);
    const page = await (await as(other.session).get("/account")).text();
    expect(page).toContain(bob);
    expect(page).not.toContain(ada);
  });
});

describe("posts from another site", () => {
  const crossSite = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

  it("cannot start or finish a sign-in (403)", async () => {
    for (const path of ["/sign-in/options", "/sign-in/verify"]) {
      const response = await via(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { ...crossSite, "Content-Type": "application/json", "CF-Connecting-IP": visitorIp() },
        body: JSON.stringify({ kind: "authenticate" }),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("cannot sign a visitor out (403), and the session stays", async () => {
    const visitor = await as().signUp(uniqueName("stays"));
    for (const action of ["signOut", "signOutEverywhere"]) {
      const response = await via(`${ORIGIN}/account`, {
        method: "POST",
        redirect: "manual",
        headers: {
          ...crossSite,
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: visitor.session,
          "CF-Connecting-IP": visitorIp(),
        },
        body: `_action=${action}`,
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
    expect((await as(visitor.session).get("/account")).status).toBe(200);
  });
});

describe("the sign-in endpoints", () => {
  it("take a verification once: the same credential and attempt again is 400, no session", async () => {
    const start = await as().json("/sign-in/options", { kind: "register", name: uniqueName("replay") });
    const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
    const { options } = (await start.json()) as { options: { challenge: string; user: { id: string } } };
    const credential = await register(await softAuthenticator(), options, { origin: ORIGIN });
    const body = { kind: "register", credential };
    expect((await as(attempt).json("/sign-in/verify", body)).status).toBe(200);
    const replay = await as(attempt).json("/sign-in/verify", body);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({
      error: { message: "That passkey could not be checked: try again." },
    });
    expect(cookiesOf(replay)["__Host-session"]).toBeUndefined();
  });

  it("refuse a credential made for another origin, or without the attempt's cookie (400)", async () => {
    const start = await as().json("/sign-in/options", { kind: "register", name: uniqueName("origin") });
    const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
    const { options } = (await start.json()) as { options: { challenge: string; user: { id: string } } };
    const foreign = await register(await softAuthenticator(), options, { origin: "https://evil.example" });
    expect(
      (await as(attempt).json("/sign-in/verify", { kind: "register", credential: foreign })).status,
    ).toBe(400);
    const own = await register(await softAuthenticator(), options, { origin: ORIGIN });
    expect((await as().json("/sign-in/verify", { kind: "register", credential: own })).status).toBe(400);
    for (const junk of ["not json", "[]", '{"kind":"register","credential":42}']) {
      const response = await via(`${ORIGIN}/sign-in/verify`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" },
        body: junk,
      });
      expect(response.status).toBe(400);
    }
    expect(reports).toEqual([]);
  });

  it(
    "count each visitor's attempts: past ten a minute, 429 with Retry-After",
    async () => {
      await awaitFreshWindow();
      const ip = visitorIp();
      const attempt = () =>
        via(`${ORIGIN}/sign-in/options`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: ORIGIN,
            "Sec-Fetch-Site": "same-origin",
            "CF-Connecting-IP": ip,
          },
          body: JSON.stringify({ kind: "authenticate" }),
        });
      for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(200);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("Retry-After")).toBe("60");
      expect(refused.headers.get("Set-Cookie")).toBeNull();
    },
    FRESH_WINDOW_TIMEOUT_MS + 30_000,
  );
});

describe("the session cookie", () => {
  it("is __Host-, HttpOnly, Secure, SameSite=Lax, Path=/, a 256-bit token, the attempt cookie cleared", async () => {
    const visitor = await as().signUp(uniqueName("attrs"));
    const session = visitor.setCookies.filter((line) => line.startsWith(`${SESSION}=`));
    expect(session).toEqual([
      `${SESSION}=${visitor.token}; Max-Age=${SESSION_IDLE_S}; Path=/; HttpOnly; Secure; SameSite=Lax`,
    ]);
    expect(visitor.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(visitor.setCookies).toContain(
      "__Host-passkey-attempt=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict",
    );
  });
});

describe("a cached guestbook page", () => {
  it("never carries Set-Cookie nor another visitor's name: two visitors in turn, one signed in", async () => {
    const name = uniqueName("Signed-in visitor");
    const visitor = await as().signUp(name);
    /** Five requests, signed in and not in turn; what the log line said of each one's cache. */
    const inTurn = async () => {
      const seen: unknown[] = [];
      for (const cookie of [visitor.session, "", visitor.session, "", ""]) {
        const response = await as(cookie).get("/guestbook");
        expect(response.status).toBe(200);
        expect(response.headers.get("Set-Cookie")).toBeNull();
        const page = await response.text();
        expect(page.includes(name)).toBe(cookie !== "");
        const line = lastLine();
        seen.push(line.cache);
        // The session read is a phase of its own; a visitor without a session cookie costs it no query.
        expect(Object.keys(line.timings as object)).toContain("middleware:session");
        if (cookie === "" && line.cache === "shell") expect(line.d1_queries).toBeUndefined();
      }
      return seen;
    };
    // The later ones are the stored shell, resumed for each visitor in turn. Another file's
    // guestbook entry meanwhile (the files share storage) forgets the shell: the five go again.
    let seen = await inTurn();
    for (let again = 0; again < 3 && seen.slice(2).some((cache) => cache !== "shell"); again++)
      seen = await inTurn();
    expect(seen.slice(2)).toEqual(["shell", "shell", "shell"]);
  });
});

describe("what never carries the token", () => {
  it("no log line, no report, no page", async () => {
    lines.length = 0;
    const visitor = await as().signUp(uniqueName("quiet"), { next: "/account" });
    const signedIn = as(visitor.session);
    const pages = await Promise.all(
      [
        ...["/account", "/account/passkeys", "/guestbook", "/sign-in"].map((path) => signedIn.get(path)),
        signedIn.data("/account"),
      ].map(async (answer) => (await answer).text()),
    );
    await signedIn.form("/guestbook", { _action: "sign", name: uniqueName("q"), message: "hi" });
    await signedIn.form("/account", { _action: "signOut" });
    expect(lines.length).toBeGreaterThan(5);
    for (const text of [...lines, ...pages, JSON.stringify(reports)])
      expect(text).not.toContain(visitor.token);
  });
});
