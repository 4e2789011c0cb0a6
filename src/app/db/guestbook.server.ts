// Every guestbook query: parameterised, and each write a single statement so nothing is half-written.
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { D1Session } from "verge";

export interface GuestbookEntry {
  id: number;
  name: string;
  message: string;
  /** ISO 8601, UTC. */
  createdAt: string;
}

export interface EntryPage {
  entries: GuestbookEntry[];
  /** Entries in the whole guestbook. */
  total: number;
}

export const PAGE_SIZE = 20;

const TOTAL = "(SELECT total FROM guestbook_count WHERE id = 1)";

/** A page number as a URL carries it: a plain positive number (not abc, 0, -1, 1.5 or 01), else null. */
export function pageNumber(param: string): number | null {
  return /^[1-9][0-9]{0,8}$/.test(param) ? Number(param) : null;
}

/** How many pages `total` entries fill (at least one, empty). */
export const pagesOf = (total: number) => Math.max(1, Math.ceil(total / PAGE_SIZE));

/** The number of visible entries: the counter row, not a count of the table. */
export async function countEntries(db: D1Session): Promise<number> {
  return (await db.prepare(`SELECT ${TOTAL} AS total`).first<{ total: number }>())!.total;
}

/**
 * Which entries around page `page` (as `listEntries` lists it, and a page either side: a shell
 * up to two minutes old may list them a little shifted) the account wrote, as SQL: `author` is
 * the session row's account in the session's own query (`withVisitorReading`), or a parameter.
 * A JSON array of ids that `ownEntryIds` reads. The bounds are numbers the code computed, never
 * text; a page past the end reads nothing (its LIMIT is 0, as `listEntries`' is, before any walk).
 */
export function ownEntriesOnPage(page: number, author: "s.account_id" | "?1" = "s.account_id"): string {
  if (!Number.isSafeInteger(page) || page < 1) throw new Error(`ownEntriesOnPage: not a page: ${page}`);
  const from = Math.max(1, page - 1);
  const skip = (from - 1) * PAGE_SIZE;
  const rows = (page + 2 - from) * PAGE_SIZE;
  return `SELECT json_group_array(id) FROM (SELECT id, author_id FROM guestbook WHERE hidden_at IS NULL
    ORDER BY created_at DESC, id DESC
    LIMIT (CASE WHEN ${TOTAL} > ${skip} THEN ${rows} ELSE 0 END) OFFSET ${skip})
    WHERE author_id = ${author}`;
}

/** The same, read on its own: after a write, which the session's earlier read did not see. */
export async function readOwnEntries(db: D1Session, accountId: string, page: number): Promise<number[]> {
  const row = await db
    .prepare(`SELECT (${ownEntriesOnPage(page, "?1")}) AS own`)
    .bind(accountId)
    .first<{ own: string }>();
  return ownEntryIds(row?.own);
}

/** The ids `ownEntriesOnPage` read (none for a signed-out visitor, whose read is empty). */
export function ownEntryIds(read: unknown): number[] {
  return typeof read === "string" ? (JSON.parse(read) as number[]) : [];
}

interface Row {
  id: number;
  name: string;
  message: string;
  created_at: string;
}

/**
 * One page of visible entries, newest first, and their total, in one batch (one consistent
 * snapshot); hidden entries (migrations/0003) are neither listed nor counted. The total is a
 * counter row (migrations/0002), not a count of the table. A page past the end reads
 * no entry: its LIMIT is 0, which SQLite checks before its OFFSET walks the index (a WHERE on
 * the counter would not do: measured, the walk still read every row).
 */
export async function listEntries(db: D1Session, page: number): Promise<EntryPage> {
  const skip = (page - 1) * PAGE_SIZE;
  const [count, rows] = await db.batch<unknown>([
    db.prepare(`SELECT ${TOTAL} AS total`),
    db
      .prepare(
        `SELECT id, name, message, created_at FROM guestbook WHERE hidden_at IS NULL
         ORDER BY created_at DESC, id DESC
         LIMIT (CASE WHEN ${TOTAL} > ?1 THEN ?2 ELSE 0 END) OFFSET ?1`,
      )
      .bind(skip, PAGE_SIZE),
  ]);
  const entries = (rows!.results as Row[]).map((row) => ({
    id: row.id,
    name: row.name,
    message: row.message,
    createdAt: row.created_at,
  }));
  return { entries, total: (count!.results[0] as { total: number }).total };
}

/**
 * The stored key: the form's key with a digest of the (already trimmed) content. The same form
 * sent twice with the same content finds its row; the same form brought back (Back, edit, send)
 * with other content is another entry, never a silent no-op.
 */
async function storedKey(formKey: string, name: string, message: string): Promise<string> {
  const content = new TextEncoder().encode(JSON.stringify([name, message]));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", content));
  return `${formKey}:${encodeHexLowerCase(digest)}`;
}

/**
 * Adds an entry unless the same form already stored the same content. The check and the insert
 * are one statement, so two concurrent submissions of the same form cannot both insert.
 * Returns the new id, or null when that form and content were already stored. `authorId` is the
 * signed-in account that wrote it (only it may delete the entry), absent for an anonymous entry.
 */
export async function addEntry(
  db: D1Session,
  entry: { name: string; message: string; formKey: string; authorId?: string | null },
): Promise<number | null> {
  const key = await storedKey(entry.formKey, entry.name, entry.message);
  const row = await db
    .prepare(
      "INSERT INTO guestbook (name, message, idempotency_key, author_id) VALUES (?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
    )
    .bind(entry.name, entry.message, key, entry.authorId ?? null)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/**
 * Hides an entry (moderation): it is no longer listed or counted. One statement, the count's
 * trigger in its transaction. Hiding a hidden entry changes nothing. False when there is no such entry.
 */
export async function hideEntry(db: D1Session, id: number): Promise<boolean> {
  const row = await db
    .prepare(
      "UPDATE guestbook SET hidden_at = coalesce(hidden_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) WHERE id = ? RETURNING id",
    )
    .bind(id)
    .first<{ id: number }>();
  return row !== null;
}
