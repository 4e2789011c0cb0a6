-- The guestbook: one row per signed entry. The idempotency key makes a resubmitted
-- form (double click, browser re-POST) a no-op: the insert skips a key it has seen.
CREATE TABLE guestbook (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  message TEXT NOT NULL CHECK (length(message) BETWEEN 1 AND 500),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  idempotency_key TEXT NOT NULL UNIQUE
);

-- Newest first, 20 a page: the listing walks this index instead of sorting the table.
CREATE INDEX guestbook_newest ON guestbook (created_at DESC, id DESC);
