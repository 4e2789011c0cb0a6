// The product's endpoints (src/app/endpoints/): robots.txt, the sitemap and the JSON API of the
// guestbook, through the product's app and local D1.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { countEntries, PAGE_SIZE, pagesOf } from "../../src/app/db/guestbook.server";
import { recordedApp } from "./apps";

const { send } = recordedApp(app.routes);
const CANONICAL = { CANONICAL_ORIGIN: "https://verge.example" };

describe("/robots.txt", () => {
  it("lets every crawler read every page and names the sitemap's absolute address", async () => {
    const { response, body, lines } = await send("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(body).toBe("User-agent: *\nAllow: /\n\nSitemap: http://localhost/sitemap.xml\n");
    expect(lines[0]).toMatchObject({ kind: "endpoint", route: "/robots.txt" });
  });

  it("names it at CANONICAL_ORIGIN when that is set", async () => {
    const { body } = await send("/robots.txt", {}, CANONICAL);
    expect(body).toContain("Sitemap: https://verge.example/sitemap.xml\n");
  });

  it("fails loudly, with a digest, on a CANONICAL_ORIGIN that is not an origin", async () => {
    const { response, body } = await send("/robots.txt", {}, { CANONICAL_ORIGIN: "verge.example" });
    expect(response.status).toBe(500);
    expect(body).not.toContain("CANONICAL_ORIGIN");
  });
});

describe("/sitemap.xml", () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

  it("lists every page without params and each guestbook page, at CANONICAL_ORIGIN", async () => {
    // Enough entries for a second page of the guestbook, whatever other files wrote.
    await env.DB.batch(
      Array.from({ length: PAGE_SIZE + 1 }, () => {
        const key = crypto.randomUUID();
        return env.DB.prepare(
          "INSERT INTO guestbook (name, message, idempotency_key) VALUES ('sitemap', 'listed', ?)",
        ).bind(key);
      }),
    );
    const { response, body } = await send("/sitemap.xml", {}, CANONICAL);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const pages = pagesOf(await countEntries(env.DB));
    expect(pages).toBeGreaterThanOrEqual(2);
    const numbered = Array.from(
      { length: pages - 1 },
      (_, i) => `https://verge.example/guestbook?page=${i + 2}`,
    );
    const listed = locs(body);
    // The example's pages, in the table's order, then each guestbook page; a page a team adds to
    // the table is listed too, so it is checked below rather than named here.
    const examples = [
      "/",
      "/guestbook",
      "/slow",
      "/errors",
      "/errors/loader",
      "/errors/render",
      "/errors/stream",
    ];
    const pagesListed = listed.slice(0, listed.length - numbered.length);
    expect(
      pagesListed.filter((loc) => examples.some((path) => loc === `https://verge.example${path}`)),
    ).toEqual(examples.map((path) => `https://verge.example${path}`));
    expect(listed.slice(-numbered.length)).toEqual(numbered);
    // Each listed page is one search engines may index; the noindex ones are left out.
    for (const loc of pagesListed) {
      const path = new URL(loc).pathname;
      expect(path, loc).not.toContain(":");
      const { body: page } = await send(path);
      expect(page, loc).not.toMatch(/<meta name="robots" content="[^"]*noindex/);
    }
    for (const hidden of ["/sign-in", "/account", "/account/passkeys"])
      expect(pagesListed).not.toContain(`https://verge.example${hidden}`);
  });
});

describe("/api/entries", () => {
  it("answers a page of entries as JSON: entries, page and pages", async () => {
    const { response, body, lines } = await send("/api/entries?page=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    const answer = JSON.parse(body) as {
      entries: { id: number; createdAt: string }[];
      page: number;
      pages: number;
    };
    expect(Object.keys(answer)).toEqual(["entries", "page", "pages"]);
    expect(answer.page).toBe(1);
    expect(answer.pages).toBe(pagesOf(await countEntries(env.DB)));
    expect(answer.entries.length).toBeLessThanOrEqual(20);
    const times = answer.entries.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(lines[0]).toMatchObject({ kind: "endpoint", route: "/api/entries" });
  });

  it("is kept in the edge cache under its page number only", async () => {
    await send("/api/entries");
    const again = await send("/api/entries?utm_source=x");
    expect(again.lines[0]!.cache).toBe("hit");
    expect(JSON.parse(again.body)).toMatchObject({ page: 1 });
  });

  it("answers 400 JSON for a page number that is not one", async () => {
    for (const page of ["abc", "0", "-1", "1.5", "01", ""]) {
      const { response, body } = await send(`/api/entries?page=${page}`);
      expect(response.status, page).toBe(400);
      expect(JSON.parse(body)).toEqual({ error: { message: "page must be a whole number from 1." } });
    }
  });

  it("answers 404 JSON for a page past the last", async () => {
    const { response, body } = await send("/api/entries?page=999999999");
    expect(response.status).toBe(404);
    expect(JSON.parse(body)).toHaveProperty("error.message");
  });
});
