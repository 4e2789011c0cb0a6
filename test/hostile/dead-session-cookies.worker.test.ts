// A session cookie that names no live session, through the product's pages: it is cleared on the
// answer, a visitor who keeps sending tokens that name nothing stops costing D1 queries, and a
// sign-in ends the session the request carried.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { SESSION_COOKIE, newSessionToken } from "../../src/server/sessions";
import { recordedApp } from "../worker/apps";
import { ORIGIN, visitorIp } from "../worker/action-helpers";
import { cookiesOf, getAs, postJson, signUp } from "../worker/sign-in-support";
import { assert } from "../support/soft-authenticator";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";

const { send } = recordedApp(app.routes);

/** A GET of `path` from `ip` with the session cookie `value`, through an app that records its log lines. */
const visit = (path: string, value: string, ip = visitorIp()) =>
  send(path, {
    redirect: "manual",
    headers: { Cookie: `${SESSION_COOKIE}=${value}`, "CF-Connecting-IP": ip },
  });

/** Whether an answer removes the session cookie: its Set-Cookie empties it with Max-Age=0. */
const clears = (response: Response) =>
  response.headers
    .getSetCookie()
    .some((line) => line.startsWith(`${SESSION_COOKIE}=;`) && /;\s*Max-Age=0/i.test(line));

describe("a session cookie that names no live session", () => {
  it.each([
    ["malformed", "not-a-token"],
    ["unknown (well formed)", newSessionToken()],
  ])("is cleared on the answer when %s, on a page behind sign-in and on the guestbook", async (_, value) => {
    for (const path of ["/account", "/guestbook"]) {
      const { response } = await visit(path, value);
      expect(clears(response), path).toBe(true);
    }
  });

  it("is cleared when its session has expired, or was signed out", async () => {
    const visitor = await signUp("Dead cookie");
    const live = await visit("/account", visitor.token);
    expect(live.response.status).toBe(200);
    expect(clears(live.response)).toBe(false);
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE account_id = ?1")
      .bind(visitor.accountId, Math.floor(Date.now() / 1000) - 1)
      .run();
    const expired = await visit("/account", visitor.token);
    expect(expired.response.status).toBe(302);
    expect(clears(expired.response)).toBe(true);
  });

  it("is not cleared for a live session, nor set for a visitor without one", async () => {
    const visitor = await signUp("Live cookie");
    expect(clears((await visit("/guestbook", visitor.token)).response)).toBe(false);
    const none = await getAs("/guestbook");
    expect(none.headers.getSetCookie()).toEqual([]);
  });

  it(
    "costs no D1 query once the visitor has sent 10 that name nothing in a minute",
    async () => {
      await awaitFreshWindow();
      const ip = visitorIp();
      // A visitor at the same address, signed in before the flood (an office behind one address).
      const colleague = await signUp("Same address");
      expect((await visit("/account", colleague.token, ip)).response.status).toBe(200);
      const seen: { queries: number; cleared: boolean }[] = [];
      for (let i = 0; i < 12; i++) {
        const { response, lines } = await visit("/account", newSessionToken(), ip);
        expect(response.status).toBe(302);
        seen.push({ queries: lines[0]?.d1_queries ?? 0, cleared: clears(response) });
      }
      // The 10 within the limit and the one that crosses it were looked up (and found dead, so
      // cleared); the next is not looked up, and not known dead, so its cookie stays.
      expect(seen).toEqual([
        ...Array(11).fill({ queries: 1, cleared: true }),
        { queries: 0, cleared: false },
      ]);
      // The colleague's session, found live before, is still looked up; another visitor's too.
      expect((await visit("/account", colleague.token, ip)).response.status).toBe(200);
      expect((await visit("/account", newSessionToken())).lines[0]?.d1_queries).toBe(1);
    },
    FRESH_WINDOW_TIMEOUT_MS + 30_000,
  );
});

describe("signing in", () => {
  it("ends the session the request carried: signing in as B with A's cookie signs A out", async () => {
    const a = await signUp("Carried A");
    const b = await signUp("Carried B");
    const start = await postJson("/sign-in/options", { kind: "authenticate" });
    const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
    const { options } = (await start.json()) as { options: { challenge: string } };
    const credential = await assert(b.authenticator, options, { origin: ORIGIN });
    const verify = await postJson(
      "/sign-in/verify",
      { kind: "authenticate", credential },
      `${attempt}; ${a.cookie}`,
    );
    expect(verify.status).toBe(200);
    const newCookie = cookiesOf(verify)[SESSION_COOKIE]!;
    expect((await getAs("/account", newCookie)).status).toBe(200);
    // A's token names nothing any more: a signed-out visitor, sent to sign in.
    expect((await getAs("/account", a.cookie)).status).toBe(302);
    expect((await getAs("/account", b.cookie)).status).toBe(200);
  });

  it("of the same account also ends the session it carried", async () => {
    const a = await signUp("Carried again");
    const start = await postJson("/sign-in/options", { kind: "authenticate" });
    const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
    const { options } = (await start.json()) as { options: { challenge: string } };
    const credential = await assert(a.authenticator, options, { origin: ORIGIN });
    const verify = await postJson(
      "/sign-in/verify",
      { kind: "authenticate", credential },
      `${attempt}; ${a.cookie}`,
    );
    expect(verify.status).toBe(200);
    expect((await getAs("/account", a.cookie)).status).toBe(302);
    expect((await getAs("/account", cookiesOf(verify)[SESSION_COOKIE]!)).status).toBe(200);
  });
});
