-- Import jobs (blogs/jobs.rs): what the owner told about the uploaded file. `input_file` (from
-- migration 8) is the upload under exports/; `input_name` the name it was uploaded under, for
-- the owner to recognize it; `site_url` the old site's address given with it (Ghost exports do
-- not name it), or NULL.
ALTER TABLE jobs ADD COLUMN input_name TEXT;
ALTER TABLE jobs ADD COLUMN site_url TEXT;
