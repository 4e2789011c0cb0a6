// The product's signed-in pages: /account and /account/passkeys behind the account layout's
// middleware, sign-in through the passkey endpoints, sign-out here and everywhere.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { uniqueName } from "./action-helpers";
import { cookiesOf, formAs, getAs, postJson, signInWith, signUp } from "./sign-in-support";

const sessionsOf = async (accountId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE account_id = ?")
    .bind(accountId)
    .first<{ n: number }>())!.n;

describe("the account layout's guard", () => {
  it("sends a signed-out visitor to /sign-in with the path to come back to (302)", async () => {
    const response = await getAs("/account/passkeys");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/sign-in?next=%2Faccount%2Fpasskeys");
    const account = await getAs("/account");
    expect(account.headers.get("Location")).toBe("/sign-in?next=%2Faccount");
  });

  it("answers a client navigation's page data with the redirect JSON", async () => {
    const response = await getAs("/account/passkeys?_data=1", "", { "X-Page-Data": "1" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirect: "/sign-in?next=%2Faccount%2Fpasskeys" });
  });

  it("answers a signed-out API client of the passkeys endpoint 401 JSON, not a redirect", async () => {
    const response = await postJson("/account/passkeys/options", {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: "Sign in first." } });
  });

  it("lets the signed-in visitor in: their name, their passkey, their page", async () => {
    const name = uniqueName("Ada");
    const visitor = await signUp(name, "/account/passkeys");
    expect(visitor.location).toBe("/account/passkeys");
    const response = await getAs("/account", visitor.cookie);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain(name);
    expect(page).toContain("Sign out everywhere");
    const passkeys = await (await getAs("/account/passkeys", visitor.cookie)).text();
    expect(passkeys).toContain("Passkey 1");
    expect(passkeys).toContain("Add a passkey");
  });
});

describe("signing in", () => {
  it("sends the visitor to a same-site next only, else to /account", async () => {
    expect((await signUp(uniqueName("n"), "https://evil.example/")).location).toBe("/account");
    expect((await signUp(uniqueName("n"), "//evil.example/x")).location).toBe("/account");
    expect((await signUp(uniqueName("n"), "/guestbook?page=2")).location).toBe("/guestbook?page=2");
  });

  it("signs an account in again with its passkey, with a new token", async () => {
    const visitor = await signUp(uniqueName("again"));
    const response = await signInWith(visitor.authenticator, "/account");
    expect(response.status).toBe(200);
    const session = cookiesOf(response)["__Host-session"]!;
    expect(session).not.toBe(visitor.cookie);
    expect(await sessionsOf(visitor.accountId)).toBe(2);
  });

  it("refuses a display name that is empty or too long (422), before any ceremony", async () => {
    expect((await postJson("/sign-in/options", { kind: "register", name: "   " })).status).toBe(422);
    expect((await postJson("/sign-in/options", { kind: "register", name: "x".repeat(61) })).status).toBe(422);
    expect((await postJson("/sign-in/options", { kind: "nope" })).status).toBe(400);
  });
});

describe("signing out", () => {
  it("revokes the session and clears the cookie; the old token is then signed out", async () => {
    const visitor = await signUp(uniqueName("out"));
    const response = await formAs("/account", { _action: "signOut" }, visitor.cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/");
    const cleared = response.headers.getSetCookie().filter((line) => line.startsWith("__Host-session="));
    expect(cleared).toEqual(["__Host-session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax"]);
    expect(await sessionsOf(visitor.accountId)).toBe(0);
    expect((await getAs("/account", visitor.cookie)).status).toBe(302);
  });

  it("everywhere: every session of the account goes, another account's stay", async () => {
    const visitor = await signUp(uniqueName("everywhere"));
    const other = await signUp(uniqueName("bystander"));
    const second = cookiesOf(await signInWith(visitor.authenticator))["__Host-session"]!;
    expect(await sessionsOf(visitor.accountId)).toBe(2);
    const response = await formAs("/account", { _action: "signOutEverywhere" }, visitor.cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("Set-Cookie")).toMatch(/^__Host-session=; Max-Age=0;/);
    expect(await sessionsOf(visitor.accountId)).toBe(0);
    expect((await getAs("/account", second)).status).toBe(302);
    expect((await getAs("/account", other.cookie)).status).toBe(200);
  });
});
