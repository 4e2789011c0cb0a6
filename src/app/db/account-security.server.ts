// What an account's owner sees and controls of its security: its security events, its live
// sessions (device, start, last use) and ending one, and each session's passkey proof.
import type { D1Session } from "verge";

/** How long security events are kept and shown (seconds): older ones are swept. */
export const SECURITY_EVENT_KEEP_S = 90 * 24 * 60 * 60;
/** How many events the account page shows, newest first. */
const EVENTS_SHOWN = 20;
/** A session's last use is written at most this often (seconds): most reads write nothing. */
export const LAST_USE_STEP_S = 10 * 60;

export type SecurityEventKind =
  "session-started" | "passkey-added" | "passkey-removed" | "session-ended" | "signed-out-everywhere";

export interface SecurityEvent {
  kind: SecurityEventKind;
  /** Unix seconds. */
  at: number;
  device: string;
  detail: string;
}

/** Device and detail are at most 60 characters (the table's checks): longer ones are cut. */
const cut = (text: string) => text.slice(0, 60);

/** The statement that records an event, for a batch with the change it records. */
export const eventStatement = (db: D1Session, accountId: string, event: SecurityEvent) =>
  db
    .prepare("INSERT INTO security_events (account_id, kind, at, device, detail) VALUES (?, ?, ?, ?, ?)")
    .bind(accountId, event.kind, event.at, cut(event.device), cut(event.detail));

export async function recordEvent(db: D1Session, accountId: string, event: SecurityEvent): Promise<void> {
  await eventStatement(db, accountId, event).run();
}

/** The account's events of the keeping time, newest first. */
export async function listEvents(db: D1Session, accountId: string, now: number): Promise<SecurityEvent[]> {
  const { results } = await db
    .prepare(
      `SELECT kind, at, device, detail FROM security_events WHERE account_id = ? AND at > ?
       ORDER BY at DESC, id DESC LIMIT ?`,
    )
    .bind(accountId, now - SECURITY_EVENT_KEEP_S, EVENTS_SHOWN)
    .all<SecurityEvent>();
  return results;
}

/**
 * A new session's device and first use, and its event, in one batch: the session row itself is
 * created by createSession (verge/server), which knows nothing of devices.
 */
export async function describeNewSession(
  db: D1Session,
  {
    sessionId,
    accountId,
    device,
    now,
  }: { sessionId: string; accountId: string; device: string; now: number },
): Promise<void> {
  await db.batch([
    db
      .prepare("UPDATE sessions SET device = ?2, last_used_at = ?3 WHERE id = ?1")
      .bind(sessionId, cut(device), now),
    eventStatement(db, accountId, { kind: "session-started", at: now, device, detail: "" }),
  ]);
}

/** Records the session's use, if its last recorded use is a step old (the caller checks). */
export async function recordSessionUse(db: D1Session, sessionId: string, now: number): Promise<void> {
  await db.prepare("UPDATE sessions SET last_used_at = ?2 WHERE id = ?1").bind(sessionId, now).run();
}

/** Records that the session's visitor just proved, with a passkey, that they are the account's owner. */
export async function recordProof(db: D1Session, sessionId: string, now: number): Promise<void> {
  await db.prepare("UPDATE sessions SET proved_at = ?2 WHERE id = ?1").bind(sessionId, now).run();
}

/**
 * A session as its account's page lists it. `handle` names it in the page's forms: the first 16
 * hex digits of its id, enough to pick one of an account's few sessions; the page never carries
 * the whole id, the key the session is looked up by.
 */
export interface SessionSummary {
  handle: string;
  device: string;
  startedAt: number;
  lastUsedAt: number;
}

export const sessionHandle = (sessionId: string) => sessionId.slice(0, 16);

/** The account's live sessions, the most recently used first. */
export async function listSessions(db: D1Session, accountId: string, now: number): Promise<SessionSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT substr(id, 1, 16) AS handle, device, created_at, coalesce(last_used_at, created_at) AS last_used_at
       FROM sessions WHERE account_id = ?1 AND expires_at > ?2 AND absolute_expires_at > ?2
       ORDER BY last_used_at DESC, created_at DESC`,
    )
    .bind(accountId, now)
    .all<{ handle: string; device: string; created_at: number; last_used_at: number }>();
  return results.map((row) => ({
    handle: row.handle,
    device: row.device || "Unknown device",
    startedAt: row.created_at,
    lastUsedAt: row.last_used_at,
  }));
}

/**
 * Ends one of the account's sessions by its handle, and records it (from `device`): the account
 * check is in the delete, so no other account's session can go. The ended session's device, or
 * null if the account has no such session.
 */
export async function endSession(
  db: D1Session,
  { accountId, handle, device, now }: { accountId: string; handle: string; device: string; now: number },
): Promise<string | null> {
  if (!/^[0-9a-f]{16}$/.test(handle)) return null;
  const row = await db
    .prepare("DELETE FROM sessions WHERE account_id = ?1 AND substr(id, 1, 16) = ?2 RETURNING device")
    .bind(accountId, handle)
    .first<{ device: string }>();
  if (!row) return null;
  const ended = row.device || "Unknown device";
  await recordEvent(db, accountId, { kind: "session-ended", at: now, device, detail: ended });
  return ended;
}

/** Ends every session of the account, and records it; how many live sessions it ended. */
export async function endEverySession(
  db: D1Session,
  { accountId, device, now }: { accountId: string; device: string; now: number },
): Promise<number> {
  const { results } = await db
    .prepare(
      `DELETE FROM sessions WHERE account_id = ?1
       RETURNING expires_at > ?2 AND absolute_expires_at > ?2 AS live`,
    )
    .bind(accountId, now)
    .all<{ live: number }>();
  const ended = results.filter((row) => row.live).length;
  const detail = ended === 1 ? "1 session" : `${ended} sessions`;
  await recordEvent(db, accountId, { kind: "signed-out-everywhere", at: now, device, detail });
  return ended;
}
