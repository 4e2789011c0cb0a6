-- Moderation: an entry can be hidden (the webhook POST /hooks/moderation), never shown again nor
-- counted, but kept. The count stays the number of visible entries: the triggers below keep it in
-- the same transaction as the insert, delete or update that changes it.
ALTER TABLE guestbook ADD COLUMN hidden_at TEXT;

-- The listing walks only visible entries, newest first, in the index's order.
DROP INDEX guestbook_newest;
CREATE INDEX guestbook_visible_newest ON guestbook (created_at DESC, id DESC) WHERE hidden_at IS NULL;

DROP TRIGGER guestbook_count_insert;
CREATE TRIGGER guestbook_count_insert AFTER INSERT ON guestbook WHEN NEW.hidden_at IS NULL
BEGIN
  UPDATE guestbook_count SET total = total + 1 WHERE id = 1;
END;

DROP TRIGGER guestbook_count_delete;
CREATE TRIGGER guestbook_count_delete AFTER DELETE ON guestbook WHEN OLD.hidden_at IS NULL
BEGIN
  UPDATE guestbook_count SET total = total - 1 WHERE id = 1;
END;

CREATE TRIGGER guestbook_count_hide AFTER UPDATE OF hidden_at ON guestbook
WHEN OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL
BEGIN
  UPDATE guestbook_count SET total = total - 1 WHERE id = 1;
END;

CREATE TRIGGER guestbook_count_unhide AFTER UPDATE OF hidden_at ON guestbook
WHEN OLD.hidden_at IS NOT NULL AND NEW.hidden_at IS NULL
BEGIN
  UPDATE guestbook_count SET total = total + 1 WHERE id = 1;
END;
