-- Image sizes, so public pages give every uploaded image its width and height. NULL: not read
-- yet (images uploaded before this migration; `quire serve` reads them at start); 0: unreadable.
ALTER TABLE images ADD COLUMN width INTEGER;
ALTER TABLE images ADD COLUMN height INTEGER;
-- Paragraphs become Markdown: the migration's seed escapes the text of existing paragraphs
-- (domain::markdown::escape_plain) so they keep rendering as they did.
