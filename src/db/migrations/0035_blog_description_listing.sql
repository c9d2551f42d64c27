-- Issue 33 (docs/public-instance.md): a blog's description, one paragraph of plain text under
-- its name ('' for none); and whether its owner lists it on the instance's landing page (off
-- until the owner turns it on; only approved blogs are shown even then).
ALTER TABLE blogs ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX blogs_listed ON blogs(id) WHERE listed;
