// The product's signed-in pages: /account and /account/passkeys behind the account layout's
// middleware, sign-in through the passkey endpoints, sign-out here and everywhere.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { uniqueName } from "./action-helpers";
import { cookiesOf, visitor } from "verge/test";

const sessionsOf = async (accountId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE account_id = ?")
    .bind(accountId)
    .first<{ n: number }>())!.n;

describe("the account layout's guard", () => {
  it("sends a signed-out visitor to /sign-in with the path to come back to (302)", async () => {
    const response = await visitor().get("/account/passkeys");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/sign-in?next=%2Faccount%2Fpasskeys");
    const account = await visitor().get("/account");
    expect(account.headers.get("Location")).toBe("/sign-in?next=%2Faccount");
  });

  it("answers a client navigation's page data with the redirect JSON", async () => {
    const response = await visitor().data("/account/passkeys");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirect: "/sign-in?next=%2Faccount%2Fpasskeys" });
  });

  it("answers a signed-out API client of the passkeys endpoint 401 JSON, not a redirect", async () => {
    const response = await visitor().json("/account/passkeys/options", {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: "Sign in first." } });
  });

  it("lets the signed-in visitor in: their name, their passkey, their page", async () => {
    const name = uniqueName("Ada");
    const ada = visitor();
    const account = await ada.signUp(name, { next: "/account/passkeys" });
    expect(account.location).toBe("/account/passkeys");
    const response = await ada.get("/account");
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain(name);
    expect(page).toContain("Sign out everywhere");
    const passkeys = await (await ada.get("/account/passkeys")).text();
    expect(passkeys).toContain("Passkey 1");
    expect(passkeys).toContain("Add a passkey");
  });
});

describe("signing in", () => {
  it("sends the visitor to a same-site next only, else to /account", async () => {
    const signUp = (next: string) => visitor().signUp(uniqueName("n"), { next });
    expect((await signUp("https://evil.example/")).location).toBe("/account");
    expect((await signUp("//evil.example/x")).location).toBe("/account");
    expect((await signUp("/guestbook?page=2")).location).toBe("/guestbook?page=2");
  });

  it("signs an account in again with its passkey, with a new token", async () => {
    const account = await visitor().signUp(uniqueName("again"));
    const response = await visitor().signIn(account.authenticator, { next: "/account" });
    expect(response.status).toBe(200);
    const session = cookiesOf(response)["__Host-session"]!;
    expect(session).not.toBe(account.session);
    expect(await sessionsOf(account.accountId)).toBe(2);
  });

  it("refuses a display name that is empty or too long (422), before any ceremony", async () => {
    const options = (body: unknown) => visitor().json("/sign-in/options", body);
    expect((await options({ kind: "register", name: "   " })).status).toBe(422);
    expect((await options({ kind: "register", name: "x".repeat(61) })).status).toBe(422);
    expect((await options({ kind: "nope" })).status).toBe(400);
  });
});

describe("signing out", () => {
  it("revokes the session and clears the cookie; the old token is then signed out", async () => {
    const ada = visitor();
    const account = await ada.signUp(uniqueName("out"));
    const response = await ada.form("/account", { _action: "signOut" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/");
    const cleared = response.headers.getSetCookie().filter((line) => line.startsWith("__Host-session="));
    expect(cleared).toEqual(["__Host-session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax"]);
    expect(await sessionsOf(account.accountId)).toBe(0);
    expect((await visitor({ cookie: account.session }).get("/account")).status).toBe(302);
  });

  it("everywhere: every session of the account goes, another account's stay", async () => {
    const ada = visitor();
    const account = await ada.signUp(uniqueName("everywhere"));
    const bystander = visitor();
    await bystander.signUp(uniqueName("bystander"));
    const second = cookiesOf(await visitor().signIn(account.authenticator))["__Host-session"]!;
    expect(await sessionsOf(account.accountId)).toBe(2);
    const response = await ada.form("/account", { _action: "signOutEverywhere" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Set-Cookie")).toMatch(/^__Host-session=; Max-Age=0;/);
    expect(await sessionsOf(account.accountId)).toBe(0);
    expect((await visitor({ cookie: second }).get("/account")).status).toBe(302);
    expect((await bystander.get("/account")).status).toBe(200);
  });
});
