import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { ORIGIN, request } from "./html";
import { securityHeaders } from "../../src/server/headers";
import type { AppEnv } from "../../src/server/context";

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (csp ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("security headers on HTML answers", () => {
  // A page, a streamed page, the not-found page, a server error page and a refused method.
  const cases: [string, RequestInit | undefined, number][] = [
    ["/", undefined, 200],
    ["/slow", undefined, 200],
    ["/nowhere", undefined, 404],
    ["/errors/loader", undefined, 500],
    ["/", { method: "DELETE" }, 405],
  ];
  for (const [path, init, status] of cases) {
    it(`${init?.method ?? "GET"} ${path} (${status}) carries the CSP, nosniff and the referrer policy`, async () => {
      const response = await request(path, init);
      await response.body?.cancel();
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = directives(response.headers.get("content-security-policy"));
      expect(csp["script-src"]).toHaveLength(2);
      expect(csp["script-src"]![0]).toMatch(/^'nonce-[^']+'$/);
      expect(csp["script-src"]![1]).toBe("'strict-dynamic'");
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(csp["base-uri"]).toEqual(["'none'"]);
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    });
  }

  it("writes the CSP in the order the protocol gives", async () => {
    const response = await request("/");
    await response.body?.cancel();
    expect(response.headers.get("content-security-policy")).toMatch(
      /^script-src 'nonce-[^']+' 'strict-dynamic'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'$/,
    );
  });
});

/** Every header the app sends on every answer besides the CSP (hono/secure-headers' set, our options). */
const FIXED = {
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "strict-origin-when-cross-origin",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "DENY",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

function expectSecurityHeaders(response: Response) {
  for (const [name, value] of Object.entries(FIXED)) expect(response.headers.get(name), name).toBe(value);
  expect(response.headers.get("content-security-policy")).toMatch(
    /^script-src 'nonce-[A-Za-z0-9+/]{24}' 'strict-dynamic'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'$/,
  );
}

describe("security headers on every kind of answer", () => {
  const sameSite = { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" };
  const cases: [string, string, RequestInit, number, string | null][] = [
    ["a page", "/", {}, 200, "text/html; charset=utf-8"],
    ["page data", "/?_data=1", { headers: { "X-Page-Data": "1" } }, 200, "application/json"],
    [
      "page data of a missing page",
      "/nowhere?_data=1",
      { headers: { "X-Page-Data": "1" } },
      404,
      "application/json",
    ],
    ["a loader's redirect", "/guestbook?page=abc", { redirect: "manual" }, 303, null],
    [
      "an action refused as JSON",
      "/guestbook",
      { method: "POST", headers: { "X-Action": "nope", ...sameSite } },
      415,
      "application/json",
    ],
    [
      "a plain form's action redirect",
      "/guestbook",
      {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...sameSite },
        body: "_action=sign&name=Headers&message=Checked",
      },
      303,
      null,
    ],
    ["an /assets/ miss (text)", "/assets/missing.js", {}, 404, "text/plain; charset=UTF-8"],
  ];
  for (const [what, path, init, status, type] of cases) {
    it(`${what}: ${init.method ?? "GET"} ${path} (${status})`, async () => {
      const response = await request(path, init);
      await response.body?.cancel();
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe(type);
      expectSecurityHeaders(response);
    });
  }

  it("each answer has its own nonce, the same in the CSP and on the page's scripts", async () => {
    const [first, second] = await Promise.all([request("/"), request("/")]);
    const nonces = await Promise.all(
      [first!, second!].map(async (response) => {
        const csp = response.headers.get("content-security-policy")!;
        const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
        expect(await response.text()).toContain(`nonce="${nonce}"`);
        return nonce;
      }),
    );
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("a response built outside the app still gets them from the middleware", async () => {
    const app = new Hono<AppEnv>();
    app.use(securityHeaders());
    app.get("/plain", () => new Response("plain", { headers: { "Content-Type": "text/plain" } }));
    const response = await app.request("/plain");
    expect(await response.text()).toBe("plain");
    expect(response.headers.get("content-type")).toBe("text/plain");
    expectSecurityHeaders(response);
  });
});
