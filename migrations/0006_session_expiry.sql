-- The scheduled sweep (src/app/jobs.server.ts) deletes expired sessions a batch at a time: this
-- index finds them without walking the table. A session past its absolute limit is past its
-- `expires_at` too (the table's CHECK), so this one column is enough.
CREATE INDEX sessions_expiry ON sessions (expires_at);
