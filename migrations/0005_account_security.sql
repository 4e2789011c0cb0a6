-- What an account's owner sees of its security: each session's device, last use and most recent
-- passkey proof, and a log of the changes to how the account is reached. Times are Unix seconds.

-- A coarse device name made from the User-Agent at sign-in ("Firefox on Windows"), never the header
-- itself; when the session was last used (to the nearest ten minutes, so reads rarely write); when
-- its visitor last proved it was them with a passkey (adding or removing one needs that within five
-- minutes, in this session).
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN last_used_at INTEGER;
ALTER TABLE sessions ADD COLUMN proved_at INTEGER;

-- What happened to an account: a new session, a passkey added or removed, sessions ended. `detail`
-- names what it was about (a passkey's name, an ended session's device, a count). Kept 90 days
-- (SECURITY_EVENT_KEEP_S in src/app/db/account-security.server.ts); older rows are only swept.
CREATE TABLE security_events (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (
    kind IN ('session-started', 'passkey-added', 'passkey-removed', 'session-ended', 'signed-out-everywhere')
  ),
  at INTEGER NOT NULL,
  device TEXT NOT NULL DEFAULT '' CHECK (length(device) <= 60),
  detail TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 60)
);

-- The account page's list, newest first.
CREATE INDEX security_events_account ON security_events (account_id, at DESC);
-- The sweep of events past their keeping time.
CREATE INDEX security_events_at ON security_events (at);
