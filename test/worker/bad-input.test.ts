import { describe, expect, it } from "vitest";
import { request } from "./html";
import { fixtureRequest } from "./apps";

/** Nothing of an exception may reach a visitor. */
function expectNoStack(body: string) {
  expect(body).not.toMatch(/^\s*at .+:\d+:\d+|Error:|TypeError|URIError|node_modules|\/src\//m);
}

describe("bad input", () => {
  const oddPaths = ["/%", "/%E0%A4%A", "/%zz", "//", "/..%2f..%2fetc", "/%2e%2e/%2e%2e/etc/passwd", "/a%00b"];
  for (const path of oddPaths) {
    it(`answers ${path} with the 404 page, not an error`, async () => {
      const response = await request(path);
      const body = await response.text();
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(body).toContain("<h1>Page not found</h1>");
      expectNoStack(body);
    });
  }

  it("answers odd paths in page-data requests with a 404 JSON body", async () => {
    for (const path of ["/%", "/%E0%A4%A", "//"]) {
      const response = await request(path, { headers: { "X-Page-Data": "1" } });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toMatch(/^application\/json/);
      expectNoStack(await response.text());
    }
  });

  it("resolves dot segments the way browsers do: /a/../b is /b", async () => {
    // The URL parser (in the client and in the runtime) removes them before routing.
    const response = await request("http://localhost/errors/../slow");
    await response.body?.cancel();
    expect(response.status).toBe(200);
    expect(new URL(response.url || "http://localhost/slow").pathname).toBe("/slow");
    const unknown = await request("/a/../b");
    expect(unknown.status).toBe(404);
    expectNoStack(await unknown.text());
  });

  it("answers 414 to a very long URL", async () => {
    for (const [send, url] of [
      [request, `/${"a".repeat(9_000)}`],
      [fixtureRequest, `/echo?text=${"x".repeat(100_000)}`],
    ] as const) {
      const response = await send(url);
      const body = await response.text();
      expect(response.status).toBe(414);
      expect(body).toContain("URI Too Long");
      expectNoStack(body);
    }
  });

  for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"]) {
    it(`answers ${method} with 405 and an Allow header`, async () => {
      for (const path of ["/", "/slow", "/nope"]) {
        const response = await request(path, { method });
        const body = await response.text();
        expect(response.status, path).toBe(405);
        expect(response.headers.get("allow"), path).toBe("GET, HEAD, POST");
        expectNoStack(body);
      }
    });
  }

  it("answers HEAD of a page like GET, without a body", async () => {
    for (const [path, status] of [
      ["/", 200],
      ["/slow", 200],
      ["/nope", 404],
    ] as const) {
      const head = await request(path, { method: "HEAD" });
      expect(head.status, path).toBe(status);
      expect(head.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
      expect(head.headers.get("content-security-policy"), path).toMatch(/'nonce-/);
      expect(await head.text(), path).toBe("");
    }
  });

  it("answers odd headers and query strings normally", async () => {
    const response = await fixtureRequest("/echo?text=%E0%A4%A&text=2&=&&%", {
      headers: { "X-Page-Data": "", "cf-ray": "", Accept: "*/*;q=bogus" },
    });
    expect(response.status).toBe(200);
    expectNoStack(await response.text());
  });
});
