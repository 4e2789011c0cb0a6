-- The number of guestbook entries, kept by triggers in the same transaction as each insert or
-- delete: a page view reads one row instead of counting the table, and a page number past the
-- end is refused before any OFFSET walks the index.
CREATE TABLE guestbook_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  total INTEGER NOT NULL CHECK (total >= 0)
);

INSERT INTO guestbook_count (id, total) SELECT 1, count(*) FROM guestbook;

CREATE TRIGGER guestbook_count_insert AFTER INSERT ON guestbook
BEGIN
  UPDATE guestbook_count SET total = total + 1 WHERE id = 1;
END;

CREATE TRIGGER guestbook_count_delete AFTER DELETE ON guestbook
BEGIN
  UPDATE guestbook_count SET total = total - 1 WHERE id = 1;
END;
