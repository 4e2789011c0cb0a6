// What keeps an account's pages out of the browser's caches: no copy of them anywhere, and a
// sign-out that tells the browser to drop what it holds of this site.
import { describe, expect, it } from "vitest";
import { uniqueName } from "../worker/action-helpers";
import { formAs, getAs, signUp } from "../worker/sign-in-support";

describe("an account's pages", () => {
  it.each(["/account", "/account/passkeys"])("%s: its HTML and page data are no-store", async (path) => {
    const visitor = await signUp(uniqueName("cached"));
    const html = await getAs(path, visitor.cookie);
    expect(html.status).toBe(200);
    expect(html.headers.get("Cache-Control")).toBe("no-store");
    const data = await getAs(`${path}?_data=1`, visitor.cookie, { "X-Page-Data": "1" });
    expect(data.status).toBe(200);
    expect(data.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("a sign-out", () => {
  it.each(["signOut", "signOutEverywhere"])("%s: clears the site's cache in the browser", async (action) => {
    const visitor = await signUp(uniqueName("leaving"));
    const response = await formAs("/account", { _action: action }, visitor.cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("Clear-Site-Data")).toBe('"cache"');
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });
});
