import { describe, expect, it } from "vitest";
import { request } from "./html";

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

  it("writes the CSP in the order DESIGN.md gives", async () => {
    const response = await request("/");
    await response.body?.cancel();
    expect(response.headers.get("content-security-policy")).toMatch(
      /^script-src 'nonce-[^']+' 'strict-dynamic'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'$/,
    );
  });
});
