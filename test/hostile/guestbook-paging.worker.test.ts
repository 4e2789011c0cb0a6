// Deep guestbook pages cost nothing to refuse, and no view counts the whole table.
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN, postForm, uniqueName } from "../worker/action-helpers";
import { listEntries, PAGE_SIZE } from "../../src/app/db/guestbook.server";

const ROWS = 300;

/** The database, counting the rows D1 reports read (`meta.rows_read`) by each batch. */
function counted(db: D1Database) {
  const counter = { rowsRead: 0 };
  const batch = async <T = unknown>(statements: D1PreparedStatement[]) => {
    const results = await db.batch<T>(statements);
    for (const result of results) counter.rowsRead += result.meta.rows_read;
    return results;
  };
  const refuse = () => {
    throw new Error("listEntries read outside db.batch: this test counts only batches");
  };
  const spy: D1Database = {
    batch,
    prepare: db.prepare.bind(db),
    exec: refuse,
    dump: refuse,
    withSession: refuse,
  };
  return { db: spy, counter };
}

const get = (path: string) => exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual" });
const shownTotal = async () =>
  Number((await (await get("/guestbook")).text()).match(/class="count">\((?:<!-- -->)?(\d+)/)![1]);
const tableTotal = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM guestbook").first<{ n: number }>())!.n;

beforeAll(async () => {
  const tag = uniqueName("deep");
  await env.DB.batch(
    Array.from({ length: ROWS }, (_, i) =>
      env.DB.prepare("INSERT INTO guestbook (name, message, idempotency_key) VALUES (?, 'seed', ?)").bind(
        `${tag}-${i}`,
        `${tag}-${i}`,
      ),
    ),
  );
});

describe("guestbook paging cost", () => {
  it("sends ?page=999999999 to the last page with a 303", async () => {
    const response = await get("/guestbook?page=999999999");
    expect(response.status).toBe(303);
    const pages = Math.ceil((await tableTotal()) / PAGE_SIZE);
    expect(response.headers.get("location")).toBe(`/guestbook?page=${pages}`);
  });

  it("reads no entry rows for a page past the end", async () => {
    const { db, counter } = counted(env.DB);
    const { entries, total } = await listEntries(db, 999_999_999);
    expect(entries).toEqual([]);
    expect(total).toBe(await tableTotal());
    expect(counter.rowsRead).toBeLessThanOrEqual(2);
  });

  it("reads one page of rows, not the whole table, to show the first page and the total", async () => {
    const { db, counter } = counted(env.DB);
    const { entries, total } = await listEntries(db, 1);
    expect(entries).toHaveLength(PAGE_SIZE);
    expect(total).toBeGreaterThanOrEqual(ROWS);
    expect(counter.rowsRead).toBeLessThanOrEqual(PAGE_SIZE + 2);
  });

  it("shows the number of entries the table holds after signing, once per form and content", async () => {
    const before = await tableTotal();
    const fields = {
      _action: "sign",
      name: uniqueName("count"),
      message: "counted",
      _key: crypto.randomUUID(),
    };
    await postForm(fields);
    await postForm(fields);
    await postForm({ ...fields, _key: crypto.randomUUID() });
    expect(await tableTotal()).toBe(before + 2);
    expect(await shownTotal()).toBe(before + 2);
  });
});
