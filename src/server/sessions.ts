// Server-side sessions in D1, named by an opaque random token in the `__Host-session` cookie and
// stored only as the token's SHA-256 (docs/decisions.md, "Sessions and passkeys").
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { parse, serialize } from "hono/utils/cookie";
import type { D1Session } from "../shared/route-module";
import {
  MALFORMED_KEY,
  NO_ADDRESS_KEY,
  visitorKey,
  withinVisitorLimit,
  type VisitorLimits,
} from "../shared/visitor-limit";

export const SESSION_COOKIE = "__Host-session";
/** A session lasts this long after the visitor's last request that slid it (seconds). */
export const SESSION_IDLE_S = 30 * 24 * 60 * 60;
/** And never longer than this after sign-in, however often the visitor comes back (seconds). */
export const SESSION_ABSOLUTE_S = 90 * 24 * 60 * 60;

/** 32 random bytes in base64url, no padding: 43 characters, 256 bits. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A signed-in visitor's session as a page sees it; times are Unix seconds. */
export interface Session {
  /** The SHA-256 of the token (hex): names the session in D1 and nowhere else. */
  id: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
  absoluteExpiresAt: number;
}

/** Seconds since the Unix epoch, the clock every function here takes (tests pass their own). */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A new token: 256 bits from the platform's CSPRNG. */
export function newSessionToken(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
}

/** The session id a token names: its SHA-256 in hex (fast and enough for 256 random bits). */
export async function sessionId(token: string): Promise<string> {
  return encodeHexLowerCase(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))),
  );
}

/**
 * The `Set-Cookie` value carrying a session token. The one place the cookie's attributes are
 * written: when the runtime's cookie helpers land (src/shared/cookies.ts) this calls them.
 */
export function sessionCookie(token: string, maxAge: number): string {
  return serialize(SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    maxAge: Math.max(0, Math.floor(maxAge)),
  });
}

/** The `Set-Cookie` value that removes the session cookie (sign-out, or a cookie naming no session). */
export function clearedSessionCookie(): string {
  return sessionCookie("", 0);
}

/** The session cookie's value as sent, whatever its shape; undefined without one. */
function sentCookie(request: Request): string | undefined {
  const header = request.headers.get("Cookie");
  return header ? parse(header, SESSION_COOKIE)[SESSION_COOKIE] : undefined;
}

/** The session token the request's cookie carries, if it has the shape of one (no D1 query otherwise). */
export function sessionToken(request: Request): string | null {
  const token = sentCookie(request);
  return token !== undefined && TOKEN.test(token) ? token : null;
}

export interface CreatedSession {
  session: Session;
  /** For the sign-in answer's `Set-Cookie`. Never log it: it is the token. */
  cookie: string;
}

/**
 * Signs an account in: always a new token (a token the visitor had before names nothing new, so it
 * cannot be fixed in advance). The account's expired sessions go in the same batch, and so does the
 * session `replacing` (the sign-in request) carried, whichever account it was: one browser, one session.
 */
export async function createSession(
  db: D1Session,
  accountId: string,
  now: number,
  replacing?: Request,
): Promise<CreatedSession> {
  const carried = replacing && sessionToken(replacing);
  const token = newSessionToken();
  const session: Session = {
    id: await sessionId(token),
    accountId,
    createdAt: now,
    expiresAt: now + SESSION_IDLE_S,
    absoluteExpiresAt: now + SESSION_ABSOLUTE_S,
  };
  await db.batch([
    ...(carried ? [db.prepare("DELETE FROM sessions WHERE id = ?").bind(await sessionId(carried))] : []),
    db.prepare("DELETE FROM sessions WHERE account_id = ?1 AND expires_at <= ?2").bind(accountId, now),
    db
      .prepare(
        "INSERT INTO sessions (id, account_id, created_at, expires_at, absolute_expires_at) VALUES (?, ?, ?, ?, ?)",
      )
      .bind(session.id, accountId, session.createdAt, session.expiresAt, session.absoluteExpiresAt),
  ]);
  return { session, cookie: sessionCookie(token, SESSION_IDLE_S) };
}

interface Row {
  account_id: string;
  created_at: number;
  expires_at: number;
  absolute_expires_at: number;
}

export interface ReadSession {
  session: Session;
  /** The `also` columns of the row the session joined (the account's display name, say), and its `select`. */
  joined?: Record<string, unknown>;
  /** Set when the expiry slid: the cookie with its new Max-Age, for the answer's `Set-Cookie`. */
  cookie?: string;
}

export interface ReadOptions {
  now: number;
  /** Where the sliding write goes, so the request never waits for it. */
  waitUntil(promise: Promise<unknown>): void;
  /**
   * Reads the session's account in the same query (one D1 query per request, not two): a table
   * joined on its `id` = the session's account, and the columns to return from it (`joined`).
   * A session whose row is gone is a signed-out visitor. Names, not input: they go into the SQL.
   * `select`: more of what the request needs, by name, as SQL expressions over the session row `s`
   * and the joined row `j` (a subquery such as the account's own rows of another table), returned
   * in `joined` too. Code, never input: the expressions go into the SQL as written.
   */
  also?: { table: string; columns: readonly string[]; select?: Readonly<Record<string, string>> };
  /**
   * Given the `Set-Cookie` value that removes the cookie when the request's cookie names no live
   * session (malformed, unknown, expired, revoked): a browser stops sending a dead token.
   */
  clear?(cookie: string): void;
  /**
   * The visitor's lookups of a token that names nothing count against `limits`; past them, no token
   * of that visitor is looked up for `periodS` (a signed-out visitor, no D1 query), in this isolate.
   */
  misses?: { limits: VisitorLimits; periodS: number };
}

/**
 * Visitors past their misses' limit, by key, until when (ms); and the sessions this isolate has
 * found live, so a held visitor's real session (an office behind one address) is still looked up.
 * At most MAX_KEPT each, the oldest let go first.
 */
const held = new Map<string, number>();
const seenLive = new Map<string, number>();
const MAX_KEPT = 10_000;
/** How long a session found live may still be looked up for a held visitor: a day of its life. */
const SEEN_LIVE_MS = 24 * 60 * 60 * 1000;

function isKept(kept: Map<string, number>, key: string): boolean {
  const until = kept.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  kept.delete(key);
  return false;
}

function keep(kept: Map<string, number>, key: string, until: number): void {
  kept.delete(key);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, until);
}

/** A key many visitors share (no address: only off Cloudflare; one that is no address) is never held. */
const holdable = (key: string) => key !== NO_ADDRESS_KEY && key !== MALFORMED_KEY;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The visitor's session, or null for a signed-out visitor: no cookie, a malformed, unknown, forged,
 * expired or revoked token (its cookie cleared through `clear`). One D1 query (none without a
 * well-formed token, nor for a visitor past `misses`). Past half its idle
 * life the expiry slides (never past the absolute limit), written after the answer.
 */
export async function readSession(
  db: D1Session,
  request: Request,
  { now, waitUntil, also, clear, misses }: ReadOptions,
): Promise<ReadSession | null> {
  const dead = () => {
    if (sentCookie(request) !== undefined) clear?.(clearedSessionCookie());
    return null;
  };
  const token = sessionToken(request);
  if (token === null) return dead();
  const id = await sessionId(token);
  const visitor = misses && visitorKey(request);
  // Held: not known to be dead, so the cookie stays; the visitor is signed out until the hold ends.
  if (visitor && isKept(held, visitor) && !isKept(seenLive, id)) return null;
  const selected = Object.entries(also?.select ?? {});
  const names = also ? [also.table, ...also.columns] : [];
  if (!names.every((name) => IDENTIFIER.test(name))) throw new Error(`readSession: not SQL names: ${names}`);
  const named = selected.map(([name]) => name).filter((name) => also?.columns.includes(name));
  if (named.length > 0) throw new Error(`readSession: select names a column already joined: ${named}`);
  const columns = also
    ? also.columns.map((column, i) => `, j.${column} AS j${i}`).join("") +
      selected.map(([, expression], i) => `, (${expression}) AS x${i}`).join("")
    : "";
  const join = also ? `JOIN ${also.table} j ON j.id = s.account_id` : "";
  const row = await db
    .prepare(
      `SELECT s.account_id, s.created_at, s.expires_at, s.absolute_expires_at${columns} FROM sessions s ${join}
       WHERE s.id = ?1 AND s.expires_at > ?2 AND s.absolute_expires_at > ?2`,
    )
    .bind(id, now)
    .first<Row & Record<string, unknown>>();
  if (!row) {
    if (misses && holdable(visitor!) && !(await withinVisitorLimit(request, misses.limits))) {
      keep(held, visitor!, Date.now() + misses.periodS * 1000);
    }
    return dead();
  }
  if (misses) keep(seenLive, id, Date.now() + SEEN_LIVE_MS);
  const extra = also
    ? {
        joined: Object.fromEntries([
          ...also.columns.map((column, i) => [column, row[`j${i}`]]),
          ...selected.map(([name], i) => [name, row[`x${i}`]]),
        ]),
      }
    : {};
  const session: Session = {
    id,
    accountId: row.account_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    absoluteExpiresAt: row.absolute_expires_at,
  };
  if (session.expiresAt - now > SESSION_IDLE_S / 2) return { session, ...extra };
  // Slide: at most one write per half idle period per session, never on a fresh one's reads.
  const expiresAt = Math.min(now + SESSION_IDLE_S, session.absoluteExpiresAt);
  if (expiresAt <= session.expiresAt) return { session, ...extra };
  waitUntil(db.prepare("UPDATE sessions SET expires_at = ?2 WHERE id = ?1").bind(id, expiresAt).run());
  return { session: { ...session, expiresAt }, ...extra, cookie: sessionCookie(token, expiresAt - now) };
}

/** Signs out the session the request's cookie names (if any). Answer with `clearedSessionCookie()`. */
export async function revokeSession(db: D1Session, request: Request): Promise<void> {
  const token = sessionToken(request);
  if (token === null) return;
  await db
    .prepare("DELETE FROM sessions WHERE id = ?")
    .bind(await sessionId(token))
    .run();
}

/** Signs out every session of the account ("sign out everywhere"). */
export async function revokeAccountSessions(db: D1Session, accountId: string): Promise<void> {
  await db.prepare("DELETE FROM sessions WHERE account_id = ?").bind(accountId).run();
}
