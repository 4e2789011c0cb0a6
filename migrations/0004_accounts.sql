-- Visitors who sign in: accounts, their passkeys, their sessions, the pending WebAuthn challenges,
-- and the author of a guestbook entry. Times the code compares (expiries) are Unix seconds, so a
-- test can hand the queries its own clock; times only shown are ISO 8601 text like the guestbook's.

-- An account. Its id is random (base64url, 16 bytes): it is also the WebAuthn user handle, which
-- the authenticator keeps and must say nothing about the visitor nor how many accounts exist.
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 60),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A passkey: the credential id (base64url) the browser names at sign-in, its public key as
-- SubjectPublicKeyInfo DER (what WebCrypto imports) with its COSE algorithm (-7 ES256, -257
-- RS256), and the signature counter (0 for most synced passkeys, which do not count).
CREATE TABLE passkeys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  public_key BLOB NOT NULL,
  algorithm INTEGER NOT NULL CHECK (algorithm IN (-7, -257)),
  counter INTEGER NOT NULL DEFAULT 0 CHECK (counter >= 0),
  -- The transports the browser reported (comma separated: "internal,hybrid"), handed back in
  -- sign-in options so it can offer the right device.
  transports TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at TEXT
);

-- An account's passkeys (its page lists them; removing one counts them).
CREATE INDEX passkeys_account ON passkeys (account_id);

-- A session: its id is the SHA-256 (hex) of the token in the visitor's cookie, never the token, so
-- a copy of this table signs no one in. `expires_at` slides while the visitor comes back;
-- `absolute_expires_at` never moves.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  absolute_expires_at INTEGER NOT NULL,
  CHECK (expires_at <= absolute_expires_at)
);

-- "Sign out everywhere" and the clean-up of an account's expired sessions at each sign-in.
CREATE INDEX sessions_account ON sessions (account_id);

-- A WebAuthn ceremony under way: one challenge per pending attempt (the id in the visitor's short
-- attempt cookie), taken (deleted) by the verification that uses it, so it is used at most once.
-- A registration also keeps the account it will create or add to, fixed when its options were made.
CREATE TABLE webauthn_challenges (
  attempt_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('register', 'authenticate')),
  challenge TEXT NOT NULL,
  account_id TEXT,
  display_name TEXT CHECK (display_name IS NULL OR length(display_name) BETWEEN 1 AND 60),
  expires_at INTEGER NOT NULL
);

-- Each new challenge deletes the expired ones: this index finds them without a table scan.
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);

-- The account that signed an entry (none for an anonymous one; an entry outlives its account).
ALTER TABLE guestbook ADD COLUMN author_id TEXT REFERENCES accounts (id) ON DELETE SET NULL;

-- An account's own entries, newest first (its account page), and the author check of a delete.
CREATE INDEX guestbook_author ON guestbook (author_id, created_at DESC) WHERE author_id IS NOT NULL;
