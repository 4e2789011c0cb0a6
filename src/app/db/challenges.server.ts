// The pending WebAuthn challenges: one per attempt, short-lived, taken (deleted) by its verification.
import type { D1Session } from "verge";

export type CeremonyKind = "register" | "authenticate";

export interface PendingChallenge {
  kind: CeremonyKind;
  /** base64url, as it comes back in the client data. */
  challenge: string;
  /** A registration's account: the one it creates (with displayName) or the one it adds a passkey to. */
  accountId: string | null;
  /** A new account's display name; null when a passkey is added to an existing account. */
  displayName: string | null;
}

/**
 * Keeps the attempt's challenge until `expiresAt` (Unix seconds), replacing any the attempt had
 * (asking for options again starts over), and deletes every expired challenge in the same batch.
 */
export async function putChallenge(
  db: D1Session,
  attemptId: string,
  pending: PendingChallenge,
  expiresAt: number,
  now: number,
): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM webauthn_challenges WHERE expires_at <= ?").bind(now),
    db
      .prepare(
        `INSERT OR REPLACE INTO webauthn_challenges (attempt_id, kind, challenge, account_id, display_name, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .bind(attemptId, pending.kind, pending.challenge, pending.accountId, pending.displayName, expiresAt),
  ]);
}

/**
 * Takes the attempt's challenge for a ceremony of this kind: deletes it and returns it, in one
 * statement, so a replayed or concurrent verification finds nothing. An expired one is deleted too,
 * and null returned, as for an unknown attempt or a challenge of the other kind.
 */
export async function takeChallenge(
  db: D1Session,
  attemptId: string,
  kind: CeremonyKind,
  now: number,
): Promise<PendingChallenge | null> {
  const row = await db
    .prepare(
      "DELETE FROM webauthn_challenges WHERE attempt_id = ? RETURNING kind, challenge, account_id, display_name, expires_at",
    )
    .bind(attemptId)
    .first<{
      kind: CeremonyKind;
      challenge: string;
      account_id: string | null;
      display_name: string | null;
      expires_at: number;
    }>();
  if (!row || row.kind !== kind || row.expires_at <= now) return null;
  return {
    kind: row.kind,
    challenge: row.challenge,
    accountId: row.account_id,
    displayName: row.display_name,
  };
}
