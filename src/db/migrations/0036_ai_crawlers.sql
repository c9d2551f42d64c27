-- Issue 35 (docs/public-instance.md, "Crawlers"): whether a blog asks AI crawlers not to use it
-- (robots.txt rules for their published user agents, and the noai directives on its pages).
-- Existing blogs allow them, as before; new blogs start as `quire serve --ai-crawlers` says.
ALTER TABLE blogs ADD COLUMN ai_crawlers TEXT NOT NULL DEFAULT 'allow' CHECK (ai_crawlers IN ('allow', 'disallow'));
