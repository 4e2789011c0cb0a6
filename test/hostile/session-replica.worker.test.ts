// A session revoked (signed out everywhere, ended from /account, expired) while the read replica
// that serves the visitor still holds its row (d1-doubles.ts): the session is read at the primary,
// so the revocation holds at once, and a session the replica has not seen yet is still found.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { nowSeconds, sessionId } from "../../src/server/sessions";
import { sessionHandle } from "../../src/app/db/account-security.server";
import { productApp } from "../worker/apps";
import { uniqueName } from "../worker/action-helpers";
import { stoppedReplicaD1 } from "../worker/d1-doubles";
import { visitor, type Account, type Send } from "verge/test";

type Replica = Awaited<ReturnType<typeof stoppedReplicaD1>>;

const lines: Record<string, unknown>[] = [];
const app = productApp({ reportError: () => {}, log: (line) => void lines.push(JSON.parse(line)) });
const replicas: Replica[] = [];

afterEach(async () => {
  for (const replica of replicas.splice(0)) await replica.drop();
});

/** A replica of the sessions table that stops now, and the product reading through it. */
async function stoppedReplica() {
  const replica = await stoppedReplicaD1(["sessions"]);
  replicas.push(replica);
  const via: Send = async (url, init) => {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(url, init), { ...env, DB: replica.DB }, ctx);
    const body = await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return new Response(body, response);
  };
  return { replica, via };
}

/** Whoever holds the account's session cookie (its owner's other browser, or a thief's), through `via`. */
const holder = (account: Account, via: Send) => visitor({ cookie: account.session, fetch: via });

/** What the holder of a revoked session gets on every route that needs the account: sent to sign in. */
async function expectRefused(account: Account, via: Send) {
  const document = await holder(account, via).get("/account");
  expect(document.status).toBe(302);
  expect(document.headers.get("Location")).toBe("/sign-in?next=%2Faccount");
  const data = await holder(account, via).data("/account");
  expect(await data.json()).toEqual({ redirect: "/sign-in?next=%2Faccount" });
  const passkeys = await holder(account, via).get("/account/passkeys");
  expect(passkeys.status).toBe(302);
  const action = await holder(account, via).form("/account", { _action: "signOut" });
  expect(action.status).toBe(303);
  expect(action.headers.get("Location")).toBe("/sign-in?next=%2Faccount");
  const endpoint = await holder(account, via).json("/account/passkeys/options", { kind: "authenticate" });
  expect(endpoint.status).toBe(401);
  // The page that only shows a name shows none.
  const guestbook = await holder(account, via).get("/guestbook");
  expect(await guestbook.text()).not.toContain("Signed in as");
}

describe("a revoked session, while the replica still holds its row", () => {
  it("is refused everywhere once its owner signs out everywhere", async () => {
    const owner = visitor();
    const account = await owner.signUp(uniqueName("everywhere"));
    const { replica, via } = await stoppedReplica();
    // The replica would still let the session in: it holds the row.
    expect((await holder(account, via).get("/account")).status).toBe(200);
    const signedOut = await visitor({ cookie: account.session, fetch: via }).form("/account", {
      _action: "signOutEverywhere",
    });
    expect(signedOut.headers.get("Location")).toBe("/sign-in?ended=1");
    await expectRefused(account, via);
    expect(replica.sessions).toContain("first-unconstrained");
  });

  it("is refused once its owner ends it from /account on another device", async () => {
    const stolen = await visitor().signUp(uniqueName("ended"));
    const owner = visitor();
    expect((await owner.signIn(stolen.authenticator)).status).toBe(200);
    const { via } = await stoppedReplica();
    const handle = sessionHandle(await sessionId(stolen.token));
    const ended = await visitor({ cookie: owner.cookie, fetch: via }).form("/account", {
      _action: "endSession",
      session: handle,
    });
    expect(ended.status).toBe(303);
    await expectRefused(stolen, via);
    // The owner's own session is untouched.
    expect((await visitor({ cookie: owner.cookie, fetch: via }).get("/account")).status).toBe(200);
  });

  it("is refused once it expires at the primary", async () => {
    const account = await visitor().signUp(uniqueName("expired"));
    const { via } = await stoppedReplica();
    await env.DB.prepare("UPDATE sessions SET expires_at = ?2 WHERE account_id = ?1")
      .bind(account.accountId, nowSeconds() - 1)
      .run();
    await expectRefused(account, via);
  });
});

describe("a session the replica has not seen yet", () => {
  it("is signed in on the account pages and the guestbook, and keeps its cookie", async () => {
    const { via } = await stoppedReplica();
    const name = uniqueName("new");
    const fresh = visitor({ fetch: via });
    const account = await fresh.signUp(name);
    const page = await fresh.get("/account");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(name);
    const guestbook = await fresh.get("/guestbook");
    // React puts a comment between the text and the name it renders.
    expect(await guestbook.text()).toMatch(new RegExp(`Signed in as (<!-- -->)?${name}`));
    expect(fresh.cookie).toContain(account.session);
  });
});

describe("what reading the session at the primary costs", () => {
  it("nothing for a visitor without a session cookie: no D1 session opened at the primary", async () => {
    const { replica, via } = await stoppedReplica();
    expect((await visitor({ fetch: via }).get("/account")).status).toBe(302);
    expect(lines.at(-1)).not.toHaveProperty("d1_queries");
    expect((await visitor({ fetch: via }).get("/guestbook")).status).toBe(200);
    expect(replica.sessions).not.toContain("first-primary");
  });

  it("one query for a signed-in visitor's session, as before, at the primary; the page's own near", async () => {
    const account = await visitor().signUp(uniqueName("cost"));
    const { replica, via } = await stoppedReplica();
    expect((await holder(account, via).get("/account/passkeys")).status).toBe(200);
    // The session with its account, then the page's passkeys: two queries, as without replicas.
    expect(lines.at(-1)).toMatchObject({ d1_queries: 2, d1_served_by: "WEUR replica" });
    expect(replica.sessions).toEqual(["first-primary", "first-unconstrained"]);
  });
});
