import { describe, expect, it } from "vitest";
import { visitor } from "verge/test";
import { postForm, postScript, uniqueName } from "./action-helpers";
import { cookieOf, formSign, productOn, scriptSign, spyD1 } from "./d1-doubles";
import { page, type ActionArgs, type LoaderArgs, type PageEnv } from "../../src/shared/route-module";
import { D1_BOOKMARK_HEADER } from "../../src/shared/protocol";
import { primaryDB, readsOnly } from "../../src/server/d1-session";
import type { ActionSuccess } from "../../src/shared/protocol";

/** D1's bookmark, sealed: ".", its issue time (seconds, base 36), ".", an HMAC-SHA256 in base64url. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}\.[0-9a-z]{1,10}\.[\w-]{43}$/;
/** The D1 bookmark a sealed one carries, as the session is opened from it. */
const unsealed = (bookmark: string) => bookmark.split(".")[0]!;
const get = (path: string, headers: Record<string, string> = {}) => visitor().get(path, { headers });
/** The guestbook's page data, as the page's script asks for it. */
const data = (headers: Record<string, string> = {}) => visitor().data("/guestbook", { headers });

/** A JavaScript sign's answer and the bookmark it sent back. */
async function signed(name: string) {
  const response = await postScript("sign", { name, message: "bookmarked", _key: crypto.randomUUID() });
  expect(response.status).toBe(200);
  const bookmark = response.headers.get(D1_BOOKMARK_HEADER);
  expect(bookmark).toMatch(BOOKMARK);
  return { response, bookmark: bookmark! };
}

describe("the D1 bookmark after a write", () => {
  it("goes back in an HttpOnly, SameSite=Lax cookie after a plain form sign", async () => {
    const response = await postForm({ _action: "sign", name: uniqueName("cookie"), message: "hi" });
    expect(response.status).toBe(303);
    const cookie = response.headers.get("Set-Cookie")!;
    const [, bookmark] = cookie.match(/^d1-bookmark=([^;]+); Max-Age=60; Path=\/; HttpOnly; SameSite=Lax$/)!;
    expect(bookmark).toMatch(BOOKMARK);
    expect(response.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
  });

  it("names the cookie __Host-d1-bookmark, Secure, when the site is served over https", async () => {
    const sign = productOn(spyD1().DB);
    const { response } = await sign(
      "https://verge.example/guestbook",
      formSign({ name: uniqueName("https"), message: "hi" }, { Origin: "https://verge.example" }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("Set-Cookie")).toMatch(
      /^__Host-d1-bookmark=[^;]+; .*; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("advances with each sign and comes back in the header and the cookie of a JavaScript sign", async () => {
    const first = await signed(uniqueName("first"));
    const second = await signed(uniqueName("second"));
    expect(second.bookmark > first.bookmark).toBe(true);
    expect(cookieOf(second.response)).toBe(`d1-bookmark=${second.bookmark}`);
  });

  it("lets the next document read with the cookie see the entry", async () => {
    const name = uniqueName("doc");
    const signedForm = await postForm({ _action: "sign", name, message: "after the redirect" });
    const next = await get("/guestbook", { Cookie: cookieOf(signedForm)! });
    expect(next.status).toBe(200);
    expect(await next.text()).toContain(name);
    expect(next.headers.has("Set-Cookie")).toBe(false);
  });

  it("lets the next page data read with the header see the entry, and answers a bookmark as new", async () => {
    const name = uniqueName("data");
    const { bookmark } = await signed(name);
    const next = await data({ [D1_BOOKMARK_HEADER]: bookmark });
    expect(next.status).toBe(200);
    expect(JSON.stringify(await next.json())).toContain(name);
    expect(next.headers.get(D1_BOOKMARK_HEADER)! >= bookmark).toBe(true);
    expect(next.headers.has("Set-Cookie")).toBe(false);
  });

  it("is not sent when the same form and content were already stored (nothing new written)", async () => {
    // A write that changed nothing would renew the visitor's cache bypass as often as they liked.
    const fields = { name: uniqueName("again"), message: "twice", _key: crypto.randomUUID() };
    await postScript("sign", fields);
    const again = await postScript("sign", fields);
    expect(((await again.json()) as ActionSuccess).result).toEqual({ created: false });
    expect(again.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
  });
});

describe("requests without a write", () => {
  it("carry no bookmark back: documents and page data read without one", async () => {
    for (const response of [await get("/guestbook"), await data()]) {
      expect(response.status).toBe(200);
      expect(response.headers.has("Set-Cookie")).toBe(false);
      expect(response.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
    }
  });

  it("set no cookie when the sign is refused (422)", async () => {
    const response = await postForm({ _action: "sign", name: "", message: "no name" });
    expect(response.status).toBe(422);
    expect(response.headers.has("Set-Cookie")).toBe(false);
  });

  it("set no cookie after an action that only reads", async () => {
    const routes = [
      page("/count", async () => ({
        default: () => null,
        title: "Count",
        actions: {
          count: async ({ env }: ActionArgs) =>
            env.DB.prepare("SELECT COUNT(*) AS n FROM guestbook").first("n"),
        },
      })),
    ];
    const { withSession, DB } = spyD1();
    const { response } = await productOn(DB, routes)("/count", scriptSign({}, { "X-Action": "count" }));
    expect(response.status).toBe(200);
    expect(withSession).toHaveBeenCalledWith("first-primary");
    expect(response.headers.has("Set-Cookie")).toBe(false);
    expect(response.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
  });
});

describe("the request's D1 session", () => {
  it("is opened once for a JavaScript sign and its revalidated page, at the primary", async () => {
    const { withSession, DB } = spyD1();
    const { response } = await productOn(DB)(
      "/guestbook",
      scriptSign({ name: uniqueName("once"), message: "1" }),
    );
    expect(response.status).toBe(200);
    expect(withSession.mock.calls).toEqual([["first-primary"]]);
  });

  it("is opened once per read, anywhere without a bookmark and from the visitor's with one", async () => {
    const { withSession, DB } = spyD1();
    const request = productOn(DB);
    const { bookmark } = await signed(uniqueName("from"));
    await request("/guestbook");
    await request("/guestbook?_data=1", { headers: { "X-Page-Data": "1", [D1_BOOKMARK_HEADER]: bookmark } });
    await request("/guestbook", { headers: { Cookie: `d1-bookmark=${bookmark}` } });
    const from = unsealed(bookmark);
    expect(withSession.mock.calls).toEqual([["first-unconstrained"], [from], [from]]);
  });

  it("is not opened for a page that does not use D1", async () => {
    const { withSession, DB } = spyD1();
    const { response } = await productOn(DB)("/");
    expect(response.status).toBe(200);
    expect(withSession).not.toHaveBeenCalled();
  });

  it("is joined by one at the primary for what primaryDB() reads, on its first statement only", async () => {
    // A read that decides access: at the primary, while the page's own reads stay anywhere.
    const routes = [
      page("/primary", async () => ({
        default: () => null,
        title: "Primary",
        loader: async ({ env, url }: LoaderArgs) => {
          const primary = primaryDB(env);
          if (url.searchParams.has("read")) await primary.prepare("SELECT 1 AS one").first();
          return { n: await env.DB.prepare("SELECT COUNT(*) AS n FROM guestbook").first("n") };
        },
        actions: {
          count: async ({ env }: ActionArgs) => primaryDB(env).prepare("SELECT 2 AS two").first("two"),
        },
      })),
    ];
    const { withSession, DB } = spyD1();
    const request = productOn(DB, routes);
    expect((await request("/primary?read")).response.status).toBe(200);
    expect(withSession.mock.calls).toEqual([["first-primary"], ["first-unconstrained"]]);
    withSession.mockClear();
    expect((await request("/primary")).response.status).toBe(200);
    expect(withSession.mock.calls).toEqual([["first-unconstrained"]]);
    withSession.mockClear();
    // An action's own session is at the primary already: the same one, not a second.
    const action = await request("/primary", scriptSign({}, { "X-Action": "count" }));
    expect(action.response.status).toBe(200);
    expect(withSession.mock.calls).toEqual([["first-primary"]]);
  });

  it("is refused to primaryDB() given an env verge did not make", () => {
    expect(() => primaryDB({} as PageEnv)).toThrow(/primaryDB\(\): pass the env verge gave/);
  });

  it("puts where D1 served the reads on the log line", async () => {
    const { line } = await productOn(spyD1().DB)("/guestbook");
    // The local runtime names itself; D1 in production gives the region and whether it was the primary.
    expect(line).toMatchObject({ route: "/guestbook", d1_served_by: "miniflare.db" });
  });
});

describe("what counts as a write", () => {
  it("is every statement but a single SELECT", () => {
    const reads = ["SELECT 1", "  -- why\n /* how */ (SELECT 1);  ", "select * from guestbook;"];
    const writes = [
      "INSERT INTO guestbook (name) VALUES ('a') RETURNING id",
      "WITH t AS (SELECT 1) DELETE FROM guestbook",
      "SELECT 1; DELETE FROM guestbook",
      "PRAGMA user_version = 2",
      "-- only a comment",
      "selected",
    ];
    expect(reads.filter(readsOnly)).toEqual(reads);
    expect(writes.filter(readsOnly)).toEqual([]);
  });
});
