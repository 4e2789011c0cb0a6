// Every account, passkey and entry-author query: parameterised, each write one statement or batch.
import type { D1Session } from "verge";

export interface Account {
  id: string;
  displayName: string;
}

/** A passkey as the server verifies with it. */
export interface StoredPasskey {
  id: string;
  accountId: string;
  /** SubjectPublicKeyInfo DER, as WebCrypto imports it. */
  publicKey: Uint8Array;
  /** COSE algorithm: -7 (ES256) or -257 (RS256). */
  algorithm: number;
  counter: number;
  transports: string[];
}

/** A passkey as its account's page lists it. */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewPasskey {
  id: string;
  publicKey: Uint8Array;
  algorithm: number;
  counter: number;
  transports: string[];
  name: string;
}

export async function accountById(db: D1Session, id: string): Promise<Account | null> {
  const row = await db
    .prepare("SELECT id, display_name FROM accounts WHERE id = ?")
    .bind(id)
    .first<{ id: string; display_name: string }>();
  return row && { id: row.id, displayName: row.display_name };
}

const insertPasskey = (db: D1Session, accountId: string, passkey: NewPasskey) =>
  db
    .prepare(
      "INSERT INTO passkeys (id, account_id, public_key, algorithm, counter, transports, name) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      passkey.id,
      accountId,
      passkey.publicKey,
      passkey.algorithm,
      passkey.counter,
      passkey.transports.join(","),
      passkey.name,
    );

/** A new account with its first passkey, both or neither (one batch is one transaction). */
export async function createAccount(db: D1Session, account: Account, passkey: NewPasskey): Promise<void> {
  await db.batch([
    db.prepare("INSERT INTO accounts (id, display_name) VALUES (?, ?)").bind(account.id, account.displayName),
    insertPasskey(db, account.id, passkey),
  ]);
}

/** Another passkey for an existing account (a second device). */
export async function addPasskey(db: D1Session, accountId: string, passkey: NewPasskey): Promise<void> {
  await insertPasskey(db, accountId, passkey).run();
}

interface PasskeyRow {
  id: string;
  account_id: string;
  public_key: ArrayBuffer | number[];
  algorithm: number;
  counter: number;
  transports: string;
}

export async function passkeyById(db: D1Session, id: string): Promise<StoredPasskey | null> {
  const row = await db
    .prepare("SELECT id, account_id, public_key, algorithm, counter, transports FROM passkeys WHERE id = ?")
    .bind(id)
    .first<PasskeyRow>();
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    publicKey: new Uint8Array(row.public_key),
    algorithm: row.algorithm,
    counter: row.counter,
    transports: row.transports ? row.transports.split(",") : [],
  };
}

/**
 * Records a sign-in with the passkey: its new counter and when. The counter only moves forward
 * (the WHERE), so two sign-ins racing with one cloned key cannot both store theirs.
 * Returns whether it was recorded.
 */
export async function recordPasskeyUse(
  db: D1Session,
  id: string,
  counter: number,
  previous: number,
): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE passkeys SET counter = ?2, last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?1 AND counter = ?3`,
    )
    .bind(id, counter, previous)
    .run();
  return result.meta.changes === 1;
}

/** The account's passkeys, oldest first, with the credential ids and transports for WebAuthn options. */
export async function listPasskeys(
  db: D1Session,
  accountId: string,
): Promise<(PasskeySummary & { transports: string[] })[]> {
  const { results } = await db
    .prepare(
      "SELECT id, name, created_at, last_used_at, transports FROM passkeys WHERE account_id = ? ORDER BY created_at, id",
    )
    .bind(accountId)
    .all<{ id: string; name: string; created_at: string; last_used_at: string | null; transports: string }>();
  return results.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    transports: row.transports ? row.transports.split(",") : [],
  }));
}

/** Renames one of the account's passkeys; false if the account has no such passkey. */
export async function renamePasskey(
  db: D1Session,
  accountId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const result = await db
    .prepare("UPDATE passkeys SET name = ?3 WHERE id = ?2 AND account_id = ?1")
    .bind(accountId, id, name)
    .run();
  return result.meta.changes === 1;
}

/**
 * Removes one of the account's passkeys, never its last: the count and the delete are one
 * statement, so two removals at once cannot leave the account with none. False if nothing went.
 */
export async function removePasskey(db: D1Session, accountId: string, id: string): Promise<boolean> {
  const result = await db
    .prepare(
      `DELETE FROM passkeys WHERE id = ?2 AND account_id = ?1
       AND (SELECT count(*) FROM passkeys WHERE account_id = ?1) > 1`,
    )
    .bind(accountId, id)
    .run();
  return result.meta.changes === 1;
}

export interface AuthoredEntry {
  id: number;
  message: string;
  createdAt: string;
}

/** The account's own guestbook entries, newest first (at most `limit`). */
export async function entriesByAuthor(
  db: D1Session,
  accountId: string,
  limit = 50,
): Promise<AuthoredEntry[]> {
  const { results } = await db
    .prepare(
      "SELECT id, message, created_at FROM guestbook WHERE author_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
    )
    .bind(accountId, limit)
    .all<{ id: number; message: string; created_at: string }>();
  return results.map((row) => ({ id: row.id, message: row.message, createdAt: row.created_at }));
}

/**
 * Deletes an entry if this account wrote it: the author check and the delete are one statement.
 * False when there is no such entry or another (or no) account wrote it: the page answers 403.
 */
export async function deleteOwnEntry(db: D1Session, accountId: string, entryId: number): Promise<boolean> {
  // RETURNING, not meta.changes: D1 counts the count trigger's update among the changes.
  const row = await db
    .prepare("DELETE FROM guestbook WHERE id = ? AND author_id = ? RETURNING id")
    .bind(entryId, accountId)
    .first();
  return row !== null;
}
