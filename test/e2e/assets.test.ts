import { describe, expect, it } from "vitest";
import { inject } from "vitest";

describe("static assets through npm run preview (Workers Static Assets)", () => {
  it("serves the hashed client files as immutable, with a JavaScript type", async () => {
    const base = inject("baseURL");
    const html = await (await fetch(base)).text();
    const entry = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const response = await fetch(new URL(entry!, base));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
  });

  // The route table's endpoints own these two addresses: no file in the build may answer first.
  it("answers /robots.txt from its endpoint, which names the sitemap and allows crawlers in", async () => {
    const base = inject("baseURL");
    const response = await fetch(new URL("/robots.txt", base));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    expect(lines).toContain(`Sitemap: ${new URL("/sitemap.xml", base).href}`);
    expect(lines.filter((line) => line.startsWith("Disallow:"))).toEqual([]);
  });

  it("answers PUT /robots.txt 405 with the endpoint's methods in Allow", async () => {
    const response = await fetch(new URL("/robots.txt", inject("baseURL")), { method: "PUT", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("answers /sitemap.xml from its endpoint, listing the pages at absolute addresses", async () => {
    const base = inject("baseURL");
    const response = await fetch(new URL("/sitemap.xml", base));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const body = await response.text();
    expect(body).toContain(`<loc>${new URL("/guestbook", base).href}</loc>`);
  });

  it("answers 404 for a missing asset, without a page around it", async () => {
    const response = await fetch(new URL("/assets/missing-ABCDEF.js", inject("baseURL")));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("<html");
  });
});
