// One D1 session per request (read replication, the Sessions API): page code's `env.DB` is it.
// Reads start from the visitor's bookmark or anywhere, actions at the primary; a write's bookmark goes
// back. `primaryDB` reads at the primary for a check that decides access (a session's).
import type { MiddlewareHandler } from "hono";
import { generateCookie, getCookie } from "hono/cookie";
import { D1_BOOKMARK_COOKIE, D1_BOOKMARK_HEADER, D1_BOOKMARK_MAX_AGE_S } from "../shared/protocol";
import type { D1Session, PageEnv } from "../shared/route-module";
import type { AppContext, AppEnv, D1State } from "./context";
import { logField } from "./logger";
import { openBookmark, sealBookmark, weakSecret, type OpenedBookmark } from "./bookmark-seal";
import { recordD1 } from "./timings";

/**
 * D1's bookmark, as Durable Object storage (which D1 runs on) writes it: four fixed-width
 * lower-case hex fields, `0000007b-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b`. Fixed
 * widths are what make bookmarks compare as strings; the binding checks nothing and keeps the
 * greater string, so one like "zzz" would outrank every real bookmark for the whole session.
 */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
/** Longer values are refused before any other look. */
const MAX_BOOKMARK_BYTES = 256;
/** The one binding page code gets as a session: a bookmark belongs to one database. */
const BINDING = "DB";

function isBookmark(value: string | null | undefined): value is string {
  return typeof value === "string" && value.length <= MAX_BOOKMARK_BYTES && BOOKMARK.test(value);
}

/**
 * On https the cookie is `__Host-d1-bookmark`: only this host, over https, with Path=/ can set a
 * cookie of that name, so a sibling subdomain cannot plant one. The runtime hands the Worker a
 * parsed and serialised URL, so its scheme is in lower case: no need to parse it again.
 */
const cookiePrefix = (c: AppContext) => (c.req.url.startsWith("https:") ? "host" : undefined);

/** The bookmarks the visitor sent, valid or not: the header (our client) and the cookie (documents). */
function offeredBookmarks(c: AppContext): string[] {
  return [c.req.header(D1_BOOKMARK_HEADER), getCookie(c, D1_BOOKMARK_COOKIE, cookiePrefix(c))].filter(
    (value) => value !== undefined,
  );
}

/** The bookmark `offered` carries if verge sealed it, and it is in D1's format. */
async function issued(c: AppContext, offered: string): Promise<OpenedBookmark | null> {
  if (offered.length > MAX_BOOKMARK_BYTES) return null;
  const opened = await openBookmark(c.env?.D1_BOOKMARK_SECRET, offered, D1_BOOKMARK_MAX_AGE_S);
  return opened && isBookmark(opened.bookmark) ? opened : null;
}

/**
 * Keeps the newest bookmark the visitor sent that verge issued (c.get("bookmark")): the format
 * alone would let a made-up one that sorts after every real bookmark (all `f`) hold the whole
 * session back, and bypass the edge cache at will.
 */
async function checkOffered(c: AppContext): Promise<void> {
  const offered = offeredBookmarks(c);
  if (offered.length === 0) return;
  const valid = (await Promise.all(offered.map((value) => issued(c, value))))
    .filter((opened) => opened !== null)
    .sort((a, b) => (a.bookmark < b.bookmark ? -1 : a.bookmark > b.bookmark ? 1 : 0));
  if (valid.length < offered.length) logField(c, "d1_bookmark", "ignored");
  const newest = valid.at(-1);
  if (newest) {
    c.set("bookmark", newest.bookmark);
    c.set("bookmarkIssuedAt", newest.issuedAt);
  }
}

/** The visitor's bookmark: the newest one verge issued that it sent. */
export const visitorBookmark = (c: AppContext): string | undefined => c.get("bookmark");

/** The request each page env was made for: primaryDB() opens its session there. */
const requests = new WeakMap<PageEnv, AppContext>();

/** Page code's env: the Worker's bindings, but `DB` is this request's session, opened on first use. */
export function pageEnv(c: AppContext): PageEnv {
  const known = c.get("d1");
  if (known) return known.env;
  const state: D1State = { env: { ...c.env } as unknown as PageEnv, wrote: false };
  c.set("d1", state);
  requests.set(state.env, c);
  if (c.env?.[BINDING]) {
    Object.defineProperty(state.env, BINDING, { enumerable: true, get: () => (state.db ??= open(c, state)) });
  }
  return state.env;
}

/**
 * Whether the request's session starts at the primary. An action may write and must read what it
 * wrote on: the primary is newer than any bookmark. So may an endpoint's unsafe method.
 */
function writesFirst(c: AppContext): boolean {
  const { kind } = c.get("kind");
  const method = c.req.method;
  return (
    kind === "action" ||
    (kind === "endpoint" && method !== "GET" && method !== "HEAD" && method !== "OPTIONS")
  );
}

/**
 * `env.DB` read at the primary, where every write already made is seen: for a check that decides
 * access (a revoked session must not read as live on a replica that has not caught up). The
 * request's own session when that starts at the primary; else one of its own, opened on its first
 * statement (none for a request that makes none), timed and logged as the request's. Its writes
 * earn the visitor no bookmark: it is for reads.
 */
export function primaryDB(env: PageEnv): D1Session {
  const c = requests.get(env);
  if (!c) throw new Error("primaryDB(): pass the env verge gave this middleware, loader or action");
  if (writesFirst(c)) return env.DB;
  let db: D1Session | undefined;
  const opened = () => (db ??= open(c, { env, wrote: false }, true));
  return {
    prepare: (sql) => opened().prepare(sql),
    batch: <T = unknown>(statements: D1PreparedStatement[]) => opened().batch<T>(statements),
  };
}

function open(c: AppContext, state: D1State, primary = writesFirst(c)): D1Session {
  state.from = primary ? undefined : visitorBookmark(c);
  if (state.from) logField(c, "d1_bookmark", "used");
  const session = c.env[BINDING].withSession(
    primary ? "first-primary" : (state.from ?? "first-unconstrained"),
  );
  state.session = session;
  const note: Note = (result, at) => {
    const where = servedBy(result.meta);
    if (where) logField(c, "d1_served_by", where);
    recordD1(c, at, durationOf(result.meta, at));
    return result;
  };
  const timed: Timed = (at, result) =>
    result.then((value) => {
      recordD1(c, at, performance.now() - at);
      return value;
    });
  return {
    prepare: (sql) => watch(state, session.prepare(sql), !readsOnly(sql), note, timed),
    async batch<T = unknown>(statements: D1PreparedStatement[]) {
      const writes = statements.some((statement) => watched.get(statement)?.writes ?? true);
      const own = statements.map((statement) => watched.get(statement)?.statement ?? statement);
      const at = performance.now();
      const results = await settled(state, writes, session.batch<T>(own));
      for (const result of results) note(result, at);
      if (writes && results.some((result) => changedRows(result.meta))) state.wrote = true;
      return results;
    },
  };
}

/** Notes where D1 served a statement begun at `at`, and its time. */
type Note = <R extends D1Result<unknown>>(result: R, at: number) => R;
/** Records a statement D1 answers without meta (first, raw) by its wall time from `at`. */
type Timed = <R>(at: number, result: Promise<R>) => Promise<R>;

/** D1's own time for a statement (meta.duration, in ms); its wall time since `at` if D1 gives none. */
function durationOf(meta: D1Result["meta"] | undefined, at: number): number {
  return typeof meta?.duration === "number" ? meta.duration : performance.now() - at;
}

/** Where D1 ran a query, as its result says: region and role in production, a name locally. */
function servedBy(meta: D1Result["meta"] | undefined): string | undefined {
  if (!meta) return undefined;
  const region = meta.served_by_region ?? meta.served_by_colo;
  if (typeof region === "string") {
    const role = meta.served_by_primary === undefined ? "" : meta.served_by_primary ? " primary" : " replica";
    return `${region}${role}`.slice(0, 64);
  }
  return typeof meta.served_by === "string" ? meta.served_by.slice(0, 64) : undefined;
}

/** Leading whitespace, comments and parentheses: what may come before a statement's first keyword. */
const LEADING = /^(?:\s|--[^\n]*|\/\*[\s\S]*?\*\/|\()*/;

/**
 * Whether `sql` only reads: a single SELECT (SQLite's never writes). Anything else counts as a
 * write, WITH and PRAGMA included: an unneeded bookmark costs a little, a missing one shows a
 * visitor a page without what they just wrote.
 */
export function readsOnly(sql: string): boolean {
  const rest = sql.replace(LEADING, "");
  const end = rest.indexOf(";");
  return /^select\b/i.test(rest) && (end < 0 || rest.slice(end + 1).trim() === "");
}

/**
 * Whether a statement changed the database, as D1's meta says; true without meta, as a write whose
 * effect is unknown. Only such a write earns a bookmark: one that changed nothing (an `ON CONFLICT
 * DO NOTHING` insert of a form sent again) would renew the visitor's cache bypass for nothing, as
 * often as they liked. `changed_db` first: `rows_written` counts AUTOINCREMENT's bookkeeping (1)
 * even for an insert that was skipped, so it is read only where D1 gives no `changed_db`.
 */
function changedRows(meta: D1Result["meta"] | undefined): boolean {
  if (!meta) return true;
  if (Number(meta.changes) > 0) return true;
  return typeof meta.changed_db === "boolean" ? meta.changed_db : Number(meta.rows_written) > 0;
}

/**
 * `result`, and a write marked if it fails: a write whose answer is lost may still have been
 * applied, and a bookmark too many costs a little where one too few hides the visitor's write.
 */
function settled<R>(state: D1State, writes: boolean, result: Promise<R>): Promise<R> {
  return result.catch((error: unknown) => {
    if (writes) state.wrote = true;
    throw error;
  });
}

/** first() as D1 answers it, from all()'s rows: D1 gives first() no meta to tell a change by. */
function firstOf(rows: Record<string, unknown>[], column?: string): unknown {
  const row = rows[0];
  if (row === undefined) return null;
  if (column === undefined) return row;
  if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
  return row[column];
}

/** Statements handed to page code, to the session's own (batch() takes only those). */
const watched = new WeakMap<object, { statement: D1PreparedStatement; writes: boolean }>();

function watch(
  state: D1State,
  statement: D1PreparedStatement,
  writes: boolean,
  note: Note,
  timed: Timed,
): D1PreparedStatement {
  /** A result with meta: the write marked if it changed rows (or failed), the time noted. */
  const checked = <R extends D1Result<unknown>>(run: () => Promise<R>) => {
    const at = performance.now();
    return settled(state, writes, run()).then((value) => {
      if (writes && changedRows(value.meta)) state.wrote = true;
      return note(value, at);
    });
  };
  const handle = {
    bind: (...values: unknown[]) => watch(state, statement.bind(...values), writes, note, timed),
    // A write's first() is run as all(), whose meta says whether it changed anything.
    first: (column?: string) =>
      writes
        ? checked(() => statement.all<Record<string, unknown>>()).then(({ results }) =>
            firstOf(results, column),
          )
        : timed(performance.now(), column === undefined ? statement.first() : statement.first(column)),
    run: () => checked(() => statement.run()),
    all: () => checked(() => statement.all()),
    // raw() has no meta and its rows cannot be rebuilt from all()'s (two columns may share a
    // name): a write through it counts as a change, marked before it runs.
    raw: (options?: { columnNames?: boolean }) => {
      if (writes) state.wrote = true;
      return timed(performance.now(), statement.raw(options as { columnNames: true }));
    },
  } as unknown as D1PreparedStatement;
  watched.set(handle, { statement, writes });
  return handle;
}

/**
 * Sends the bookmark back: after an action that wrote, in the cookie (documents read it) and,
 * to our client, in the header; on page data read from the visitor's bookmark, the session's
 * newer one (the client keeps the latest). Every other answer carries none.
 */
export function d1Bookmarks(): MiddlewareHandler<AppEnv> {
  return async function d1Bookmarks(c, next) {
    // Refused at start, as a route's broken rule is: every request, until the secret is fixed.
    const weak = weakSecret(c.env?.D1_BOOKMARK_SECRET);
    if (weak) throw new Error(weak);
    await checkOffered(c);
    await next();
    const state = c.get("d1");
    const bookmark = state?.session?.getBookmark();
    if (!state || !bookmark) return;
    const { kind, script } = c.get("kind");
    const sends = (kind === "action" && state.wrote) || (kind === "data" && state.from !== undefined);
    if (!sends) return;
    // Never send what would be refused on its way back.
    if (!isBookmark(bookmark)) return logField(c, "d1_bookmark", "unrecognised");
    // Only a write starts a new lifetime: page data hands back the one its bookmark was issued at.
    const issuedAt = state.wrote ? Date.now() : (c.get("bookmarkIssuedAt") ?? Date.now());
    const sealed = await sealBookmark(c.env?.D1_BOOKMARK_SECRET, bookmark, issuedAt);
    if (kind === "data" || script) c.res.headers.set(D1_BOOKMARK_HEADER, sealed);
    if (kind === "action") {
      const prefix = cookiePrefix(c);
      const cookie = generateCookie(D1_BOOKMARK_COOKIE, sealed, {
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        secure: prefix !== undefined,
        maxAge: D1_BOOKMARK_MAX_AGE_S,
        prefix,
      });
      c.res.headers.append("Set-Cookie", cookie);
      logField(c, "d1_bookmark", "sent");
    }
  };
}
