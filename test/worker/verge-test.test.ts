// verge/test's visitor as a product's tests rely on it: an address of its own, a cookie jar kept as
// a browser keeps one, the build on what the page's script sends, and its requests' log lines.
import { describe, expect, it } from "vitest";
import { cookieJar, serverLog, visitor } from "verge/test";
import { uniqueName } from "./action-helpers";

describe("verge/test's visitor", () => {
  it("keeps its session as a browser does, and drops it when an answer clears it", async () => {
    const ada = visitor();
    await ada.signUp(uniqueName("jar"));
    expect((await ada.get("/account")).status).toBe(200);
    expect((await ada.form("/account", { _action: "signOut" })).status).toBe(303);
    expect(ada.cookies.has("__Host-session")).toBe(false);
    expect((await ada.get("/account")).status).toBe(302);
  });

  it("is a visitor of an address of its own unless told one", () => {
    expect(visitor().ip).not.toBe(visitor().ip);
    expect(visitor({ ip: "203.0.113.9" }).ip).toBe("203.0.113.9");
  });

  it("sends page data with its build: the worker's own, or a stale one it is told to reload", async () => {
    expect((await visitor().data("/guestbook")).status).toBe(200);
    const stale = await visitor({ build: "an-old-build" }).data("/guestbook");
    expect(await stale.json()).toMatchObject({ reload: true });
  });

  it("finds the worker's log line of a request by the ray it sent", async () => {
    const answer = await visitor().get("/guestbook");
    await answer.text();
    expect(await serverLog(answer)).toEqual([
      expect.objectContaining({ kind: "html", path: "/guestbook", status: 200 }),
    ]);
  });

  it("takes Set-Cookie lines into its jar: added, replaced, removed by Max-Age or a past Expires", () => {
    const jar = cookieJar("a=1; b=2; c=3");
    const headers = new Headers([
      ["Set-Cookie", "a=4; Path=/"],
      ["Set-Cookie", "b=; Max-Age=0; Path=/"],
      ["Set-Cookie", "c=5; Expires=Thu, 01 Jan 1970 00:00:00 GMT"],
      ["Set-Cookie", "d=6; Max-Age=60"],
    ]);
    jar.keep(new Response(null, { headers }));
    expect(jar.header()).toBe("a=4; d=6");
  });
});
