-- Issue 32 (docs/custom-css.md): a blog's custom stylesheet, on top of its theme. Checked by the
-- write path before it is stored (at most the --max-custom-css-bytes limit, 16 KB by default);
-- '' for none. Kept exactly as the owner wrote it.
ALTER TABLE blogs ADD COLUMN custom_css TEXT NOT NULL DEFAULT '';
