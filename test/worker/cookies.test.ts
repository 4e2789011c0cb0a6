// The cookie helpers (src/shared/cookies.ts): Set-Cookie values with safe defaults, and a request's
// cookies read back, as a browser would send them.
import { describe, expect, it } from "vitest";
import { deleteCookie, getCookie, setCookie } from "../../src/shared/cookies";

const attributes = (cookie: string) => cookie.split("; ").slice(1);

describe("setCookie", () => {
  it("defaults to Path=/, HttpOnly, Secure and SameSite=Lax", () => {
    const cookie = setCookie("theme", "dark");
    expect(cookie.split("; ")[0]).toBe("theme=dark");
    expect(attributes(cookie).sort()).toEqual(["HttpOnly", "Path=/", "SameSite=Lax", "Secure"]);
  });

  it("takes a lifetime and lets a caller turn a default off", () => {
    const cookie = setCookie("seen", "1", { maxAge: 3600, httpOnly: false, sameSite: "Strict" });
    expect(attributes(cookie).sort()).toEqual(["Max-Age=3600", "Path=/", "SameSite=Strict", "Secure"]);
  });

  it("encodes a value a header cannot carry as it is", () => {
    const cookie = setCookie("note", "a b;c=é");
    expect(cookie.split("; ")[0]).toBe("note=a%20b%3Bc%3D%C3%A9");
    const request = new Request("https://site.example/", { headers: { Cookie: cookie.split("; ")[0]! } });
    expect(getCookie(request, "note")).toBe("a b;c=é");
  });

  it("holds a __Host- name to its rules: Secure, Path=/ and no Domain, whatever was asked", () => {
    const cookie = setCookie("__Host-session", "t", {
      secure: false,
      path: "/account",
      domain: "site.example",
    });
    expect(attributes(cookie).sort()).toEqual(["HttpOnly", "Path=/", "SameSite=Lax", "Secure"]);
  });

  it("holds a __Secure- name to Secure", () => {
    expect(attributes(setCookie("__Secure-id", "1", { secure: false }))).toContain("Secure");
  });

  it("refuses a name a browser would not take", () => {
    expect(() => setCookie("a;b", "1")).toThrow();
    expect(() => setCookie("a b", "1")).toThrow();
  });
});

describe("deleteCookie", () => {
  it("expires the cookie now, on the same path", () => {
    const cookie = deleteCookie("theme");
    expect(cookie.split("; ")[0]).toBe("theme=");
    expect(attributes(cookie)).toEqual(expect.arrayContaining(["Max-Age=0", "Path=/"]));
    expect(cookie).toContain("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  });
});

describe("getCookie", () => {
  const request = (cookie?: string) =>
    new Request("https://site.example/", cookie === undefined ? {} : { headers: { Cookie: cookie } });

  it("reads one cookie among several", () => {
    expect(getCookie(request("a=1; theme=dark; b=2"), "theme")).toBe("dark");
  });

  it("is undefined without the cookie, without a Cookie header, and for a malformed value", () => {
    expect(getCookie(request("a=1"), "theme")).toBeUndefined();
    expect(getCookie(request(), "theme")).toBeUndefined();
    expect(getCookie(request('theme=da"rk'), "theme")).toBeUndefined();
  });

  it("keeps the first of two cookies of one name (the most specific path, as browsers order them)", () => {
    expect(getCookie(request("theme=dark; theme=light"), "theme")).toBe("dark");
  });

  it("does not take a cookie whose name only ends with the one asked for", () => {
    expect(getCookie(request("xtheme=dark"), "theme")).toBeUndefined();
  });
});
