// Every guestbook query: parameterised, and each write a single statement so nothing is half-written.
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

interface Row {
  id: number;
  name: string;
  message: string;
  created_at: string;
}

/** One page of entries, newest first; the count comes from the same batch (one consistent snapshot). */
export async function listEntries(db: D1Database, page: number): Promise<EntryPage> {
  const [rows, count] = await db.batch<unknown>([
    db
      .prepare(
        "SELECT id, name, message, created_at FROM guestbook ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
      )
      .bind(PAGE_SIZE, (page - 1) * PAGE_SIZE),
    db.prepare("SELECT count(*) AS total FROM guestbook"),
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
 * Adds an entry unless one with the same idempotency key exists. The check and the insert
 * are one statement, so two concurrent submissions of the same form cannot both insert.
 * Returns the new id, or null when the key was already used.
 */
export async function addEntry(
  db: D1Database,
  entry: { name: string; message: string; idempotencyKey: string },
): Promise<number | null> {
  const row = await db
    .prepare(
      "INSERT INTO guestbook (name, message, idempotency_key) VALUES (?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
    )
    .bind(entry.name, entry.message, entry.idempotencyKey)
    .first<{ id: number }>();
  return row?.id ?? null;
}
