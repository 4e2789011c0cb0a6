// D1 bindings for session tests: a spy on the real local D1, a database whose read replica lags and
// one whose replica stopped; and the product app run on any, one request at a time, with its log line.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { appWith, productApp } from "./apps";
import type { RouteTable } from "../../src/shared/route-module";
import { BUILD, ORIGIN, visitorIp } from "./action-helpers";
import { sealBookmark } from "../../src/server/bookmark-seal";

/** The real local D1, with every withSession() call recorded. */
export function spyD1() {
  const withSession = vi.fn((start?: string) => env.DB.withSession(start));
  return { withSession, DB: { withSession } as unknown as D1Database };
}

/** `bookmark` as verge issues it (sealed with the tests' key: D1_BOOKMARK_SECRET as configured). */
export const sealed = (bookmark: string) => sealBookmark(env.D1_BOOKMARK_SECRET, bookmark);

/** A bookmark in D1's format at `position` (the double's clock). */
export const bookmarkAt = (position: number) =>
  `00000000-${position.toString(16).padStart(8, "0")}-00000000-${"0".repeat(32)}`;
const positionOf = (bookmark: string) => parseInt(bookmark.split("-")[1]!, 16);
const writes = (sql: string) => !/^\s*select\b/i.test(sql);

interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * D1 with one read replica that never catches up: writes and `first-primary` sessions go to the
 * primary (the real local D1). Other reads go to the replica, which answers a statement as it did
 * before the first write (what it saw while in sync), unless the session's bookmark is newer than
 * the replica: D1 then serves it from an instance that has caught up, here the primary.
 */
export function laggingD1(primary: D1Database = env.DB) {
  /** The primary's position: one step per write. */
  let written = 0;
  const replica = { at: 0, answers: new Map<string, unknown>() };
  const sessions: (string | undefined)[] = [];

  function withSession(start?: string) {
    sessions.push(start);
    let seen = !start || start.startsWith("first-") ? -1 : positionOf(start);
    const onPrimary = start === "first-primary";
    async function execute<T>(key: unknown, write: boolean, run: () => Promise<T>): Promise<T> {
      if (onPrimary || write || seen > replica.at) {
        const result = await run();
        if (write) written++;
        seen = Math.max(seen, written);
        return served(result, "ENAM", true);
      }
      // In sync, the replica answers as the primary does, and keeps the answer; behind, it gives
      // the kept one (a statement it never saw is the primary's answer: the double's limit).
      const id = JSON.stringify(key);
      if (written === replica.at) replica.answers.set(id, await run());
      const answer = replica.answers.has(id) ? (structuredClone(replica.answers.get(id)) as T) : await run();
      seen = Math.max(seen, replica.at);
      return served(answer, "WEUR", false);
    }
    const statement = (sql: string, params: unknown[] = []) => {
      const real = () => primary.prepare(sql).bind(...params);
      const run = <T>(method: string, query: () => Promise<T>) =>
        execute([method, sql, params], writes(sql), query);
      return {
        sql,
        params,
        bind: (...values: unknown[]) => statement(sql, values),
        first: (column?: string) => run("first", () => (column ? real().first(column) : real().first())),
        all: () => run("all", () => real().all()),
        run: () => run("run", () => real().run()),
        raw: () => run("raw", () => real().raw()),
      };
    };
    return {
      prepare: (sql: string) => statement(sql),
      batch: (statements: Statement[]) =>
        execute(
          statements.map((s) => [s.sql, s.params]),
          statements.some((s) => writes(s.sql)),
          () => primary.batch(statements.map((s) => primary.prepare(s.sql).bind(...s.params))),
        ),
      getBookmark: () => (seen < 0 ? null : bookmarkAt(seen)),
    };
  }
  return { sessions, DB: { withSession } as unknown as D1Database };
}

/**
 * D1 with one read replica that stopped where it stands now: reads a replica may serve (a session
 * begun `first-unconstrained`, or from a bookmark it has, until that session writes) see `tables`
 * as they are at this call, in copies of them made in the real local D1; every other table, and
 * writes and `first-primary` sessions, are the primary's (the real local D1, as it goes on). A
 * bookmark newer than the replica is served by an instance that caught up: here the primary.
 * `drop()` removes the copies.
 */
export async function stoppedReplicaD1(tables: readonly string[], primary: D1Database = env.DB) {
  const tag = `replica_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const copies = tables.map((table) => [table, `${tag}_${table}`] as const);
  for (const [table, copy] of copies) {
    await primary.prepare(`CREATE TABLE ${copy} AS SELECT * FROM ${table}`).run();
  }
  /** A read as the replica runs it: its tables' names turned to their copies'. */
  const asOnReplica = (sql: string) =>
    copies.reduce(
      (text, [table, copy]) => text.replace(new RegExp(`\\b(from|join)\\s+${table}\\b`, "gi"), `$1 ${copy}`),
      sql,
    );
  /** The primary's position: one step per write; the replica stays at 0. */
  let written = 0;
  const sessions: (string | undefined)[] = [];

  function withSession(start?: string) {
    sessions.push(start);
    let seen = !start || start.startsWith("first-") ? -1 : positionOf(start);
    let onPrimary = start === "first-primary" || seen > 0;
    async function execute<T>(write: boolean, run: (onReplica: boolean) => Promise<T>): Promise<T> {
      if (onPrimary || write) {
        const result = await run(false);
        if (write) written++;
        seen = Math.max(seen, written);
        // Having written, the session reads what it wrote: at the primary, here.
        onPrimary = true;
        return served(result, "ENAM", true);
      }
      seen = Math.max(seen, 0);
      return served(await run(true), "WEUR", false);
    }
    const statement = (sql: string, params: unknown[] = []) => {
      const prepared = (onReplica: boolean) =>
        primary.prepare(onReplica ? asOnReplica(sql) : sql).bind(...params);
      const run = <T>(query: (s: D1PreparedStatement) => Promise<T>) =>
        execute(writes(sql), (onReplica) => query(prepared(onReplica)));
      return {
        sql,
        params,
        bind: (...values: unknown[]) => statement(sql, values),
        first: (column?: string) => run((s) => (column ? s.first(column) : s.first())),
        all: () => run((s) => s.all()),
        run: () => run((s) => s.run()),
        raw: () => run((s) => s.raw()),
      };
    };
    return {
      prepare: (sql: string) => statement(sql),
      batch: (statements: Statement[]) =>
        execute(
          statements.some((s) => writes(s.sql)),
          (onReplica) =>
            primary.batch(
              statements.map((s) =>
                primary.prepare(onReplica ? asOnReplica(s.sql) : s.sql).bind(...s.params),
              ),
            ),
        ),
      getBookmark: () => (seen < 0 ? null : bookmarkAt(seen)),
    };
  }
  const drop = async () => {
    for (const [, copy] of copies) await primary.prepare(`DROP TABLE IF EXISTS ${copy}`).run();
  };
  return { sessions, drop, DB: { withSession } as unknown as D1Database };
}

/** Results say where they were served, as D1's do in production. */
function served<T>(result: T, region: string, primary: boolean): T {
  const stamp = (one: unknown) => {
    const meta = (one as { meta?: Record<string, unknown> } | null)?.meta;
    if (meta) Object.assign(meta, { served_by_region: region, served_by_primary: primary });
  };
  if (Array.isArray(result)) result.forEach(stamp);
  else stamp(result);
  return result;
}

/** The product (or its layout with `routes`) on the given D1 binding: each answer, its body and log line. */
export function productOn(DB: D1Database, routes?: RouteTable) {
  // A deploy of its own (cache-entry.ts's generation): pages the edge cache keeps, the guestbook
  // among them, start uncached, so each product's first read of a page reaches D1.
  const deploy = { CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: "", timestamp: "" } };
  const lines: Record<string, unknown>[] = [];
  const hooks = { reportError: () => {}, log: (line: string) => void lines.push(JSON.parse(line)) };
  const app = routes ? appWith(routes, hooks) : productApp(hooks);
  return async (path: string, init: RequestInit = {}) => {
    const ctx = createExecutionContext();
    const request = new Request(new URL(path, ORIGIN), { redirect: "manual", ...init });
    const response = await app.fetch(request, { ...env, ...deploy, DB }, ctx);
    const body = await response.text();
    await waitOnExecutionContext(ctx);
    return { response, body, line: lines.at(-1)! };
  };
}

/** A plain form's sign (no JavaScript), from a visitor of its own. */
export function formSign(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      "CF-Connecting-IP": visitorIp(),
      ...headers,
    },
    body: new URLSearchParams({ _action: "sign", ...fields }),
  };
}

/** Our client's sign (X-Action, X-Build). */
export function scriptSign(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): RequestInit {
  return formSign(fields, { "X-Action": "sign", "X-Build": BUILD, ...headers });
}

/** The `d1-bookmark=...` pair of an answer's Set-Cookie, for the next request's Cookie. */
export const cookieOf = (response: Response) => response.headers.get("Set-Cookie")?.split(";")[0] ?? null;
