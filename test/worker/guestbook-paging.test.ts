import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BUILD, ORIGIN } from "./action-helpers";

/** Rows dated in the far future sort first whatever else the table holds. */
async function seed(count: number, tag: string) {
  const statements = Array.from({ length: count }, (_, i) =>
    env.DB.prepare(
      "INSERT INTO guestbook (name, message, created_at, idempotency_key) VALUES (?, ?, ?, ?)",
    ).bind(
      `${tag}-${i + 1}`,
      `message ${i + 1}`,
      `9999-01-01T00:00:${String(i).padStart(2, "0")}.000Z`,
      `${tag}-${i}`,
    ),
  );
  await env.DB.batch(statements);
}

const get = (path: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(`${ORIGIN}${path}`, { headers, redirect: "manual" });

const names = (html: string) => [...html.matchAll(/class="entry-name">([^<]+)</g)].map((m) => m[1]);

describe("guestbook paging", () => {
  it("lists 20 entries a page, newest first, with links to newer and older pages", async () => {
    const tag = `page-${crypto.randomUUID().slice(0, 6)}`;
    await seed(45, tag);
    const first = await (await get("/guestbook")).text();
    expect(names(first).slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `${tag}-${45 - i}`));
    expect(names(first)).toHaveLength(20);
    expect(first).toContain('<a href="/guestbook?page=2" rel="next">Older entries</a>');
    expect(first).not.toContain('rel="prev"');

    const second = await (await get("/guestbook?page=2")).text();
    expect(names(second)).toEqual(Array.from({ length: 20 }, (_, i) => `${tag}-${25 - i}`));
    expect(second).toContain('<a href="/guestbook" rel="prev">Newer entries</a>');
    expect(second).toContain('<a href="/guestbook?page=3" rel="next">Older entries</a>');
    expect(second).toContain("<title>Guestbook (page 2)</title>");

    const data = await get("/guestbook?page=3", { "X-Page-Data": "1", "X-Build": BUILD });
    const body = (await data.json()) as {
      data: { entries: { name: string }[]; page: number; pages: number };
    };
    expect(body.data.page).toBe(3);
    expect(body.data.pages).toBeGreaterThanOrEqual(3);
    expect(body.data.entries.slice(0, 5).map((e) => e.name)).toEqual(
      [5, 4, 3, 2, 1].map((n) => `${tag}-${n}`),
    );
  });

  it.each(["abc", "0", "-1", "1.5", "01", "", "99999999999999999999"])(
    "sends ?page=%s to the first page with a 303",
    async (bad) => {
      const response = await get(`/guestbook?page=${encodeURIComponent(bad)}`);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/guestbook");
    },
  );

  it("sends a page past the end to the last page", async () => {
    const response = await get("/guestbook?page=100000");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/guestbook(\?page=\d+)?$/);
    const landed = await get(response.headers.get("location")!);
    expect(landed.status).toBe(200);
  });
});
