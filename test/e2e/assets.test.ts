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

  it("serves a robots.txt that lets crawlers in, as a static text file", async () => {
    const response = await fetch(new URL("/robots.txt", inject("baseURL")));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const lines = (await response.text()).split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    expect(lines.filter((line) => line.startsWith("Disallow:"))).toEqual([]);
  });

  it("answers 404 for a missing asset, without a page around it", async () => {
    const response = await fetch(new URL("/assets/missing-ABCDEF.js", inject("baseURL")));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("<html");
  });
});
