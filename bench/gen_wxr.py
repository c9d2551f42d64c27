#!/usr/bin/env python3
"""Writes a WordPress export (WXR 1.2, as WordPress's Tools -> Export writes it) of a generated
blog, for the import benchmark (bench/import.sh).

Each post has 1 to 6 KB of block-editor HTML (paragraphs with bold, italic, links and inline
code; some headings, lists, quotes and code blocks), 1 or 2 of 12 categories and 1 to 4 of 200
tags, a publication date between 2010 and 2025 (its local date in Europe/Paris, as WordPress
keeps both), and its permalink /YYYY/MM/slug/. About 7 % are drafts, a few are scheduled for
2030, and ten items are pages. No images: a release build may not download from this machine,
and a benchmark must not download from anywhere else. The same seed gives the same file, and
the first N posts of a larger file are those of a smaller one.

Usage: gen_wxr.py --posts N --out FILE [--seed S]
"""

import argparse
import random
from datetime import datetime, timedelta, timezone

SITE = "http://old.example.com"
SYLLABLES = ["ka", "lo", "mi", "ra", "te", "su", "vin", "dor", "el", "an", "qui", "re", "po", "lis", "mar",
             "to", "ne", "sa", "bel", "cor", "di", "fa", "gu", "ho", "ja", "ken", "lu", "mo", "nu", "or"]
CATEGORIES = ["Travel", "Notes", "Écriture", "Food", "Books", "Music", "Code", "Garden", "Photos", "Letters",
              "Road Trip", "Misc"]
PAGES = 10


def words(rng, size=4000):
    found = set()
    while len(found) < size:
        found.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(found)


def sentence(rng, vocabulary):
    picked = rng.choices(vocabulary, k=rng.randint(6, 16))
    i = rng.randrange(len(picked))
    style = rng.random()
    if style < 0.15:
        picked[i] = f"<strong>{picked[i]}</strong>"
    elif style < 0.3:
        picked[i] = f"<em>{picked[i]}</em>"
    elif style < 0.4:
        picked[i] = f'<a href="https://example.com/{picked[i]}">{picked[i]}</a>'
    elif style < 0.45:
        picked[i] = f"<code>{picked[i]}</code>"
    return " ".join(picked).capitalize() + "."


def block(rng, vocabulary):
    """One block-editor block, as WordPress 6 stores it."""
    kind = rng.random()
    if kind < 0.1:
        text = " ".join(rng.choices(vocabulary, k=rng.randint(2, 5))).capitalize()
        return f"<!-- wp:heading -->\n<h2>{text}</h2>\n<!-- /wp:heading -->"
    if kind < 0.17:
        items = "".join(f"<!-- wp:list-item -->\n<li>{sentence(rng, vocabulary)}</li>\n<!-- /wp:list-item -->"
                        for _ in range(rng.randint(2, 5)))
        return f"<!-- wp:list -->\n<ul>{items}</ul>\n<!-- /wp:list -->"
    if kind < 0.21:
        return ("<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:paragraph -->\n"
                f"<p>{sentence(rng, vocabulary)}</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->")
    if kind < 0.24:
        code = "\n".join(f"let {rng.choice(vocabulary)} = {rng.randint(1, 999)};" for _ in range(rng.randint(2, 6)))
        return f"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>{code}</code></pre>\n<!-- /wp:code -->"
    text = " ".join(sentence(rng, vocabulary) for _ in range(rng.randint(2, 6)))
    return f"<!-- wp:paragraph -->\n<p>{text}</p>\n<!-- /wp:paragraph -->"


def content(rng, vocabulary):
    target = rng.randint(1024, 6 * 1024)
    blocks = []
    size = 0
    while size < target:
        blocks.append(block(rng, vocabulary))
        size += len(blocks[-1].encode()) + 2
    return "\n\n".join(blocks)


def slug_of(title):
    return "-".join(title.lower().split())[:60].rstrip("-")


def cdata(text):
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def item(rng, vocabulary, tags, n, used_slugs):
    page = n < PAGES
    title = " ".join(rng.choices(vocabulary, k=rng.randint(2, 6))).capitalize()
    slug = slug_of(title)
    while slug in used_slugs:
        slug = f"{slug}-{rng.randint(2, 99)}"
    used_slugs.add(slug)
    status = "publish"
    roll = rng.random()
    if page:
        published = datetime(2012, 1, 1, tzinfo=timezone.utc) + timedelta(days=n)
    else:
        published = datetime(2010, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(16 * 365 * 86400))
        if roll < 0.07:
            status = "draft"
        elif roll < 0.08:
            status = "future"
            published = datetime(2030, 1, 1, 9, tzinfo=timezone.utc) + timedelta(hours=n)
    local = published + timedelta(hours=2 if 4 <= published.month <= 10 else 1)  # Europe/Paris, roughly
    gmt = "0000-00-00 00:00:00" if status == "draft" else published.strftime("%Y-%m-%d %H:%M:%S")
    post_id = 100 + n
    link = f"{SITE}/{slug}/" if page else (f"{SITE}/?p={post_id}" if status != "publish" else
                                           f"{SITE}/{local:%Y}/{local:%m}/{slug}/")
    terms = []
    if not page:
        for name in rng.sample(CATEGORIES, rng.randint(1, 2)):
            terms.append(f'\t\t<category domain="category" nicename="{slug_of(name)}">{cdata(name)}</category>')
        for name in rng.sample(tags, rng.randint(1, 4)):
            terms.append(f'\t\t<category domain="post_tag" nicename="{slug_of(name)}">{cdata(name)}</category>')
    return "\n".join([
        "\t<item>",
        f"\t\t<title>{cdata(title)}</title>",
        f"\t\t<link>{link}</link>",
        f"\t\t<pubDate>{published:%a, %d %b %Y %H:%M:%S} +0000</pubDate>",
        f"\t\t<dc:creator>{cdata('bench')}</dc:creator>",
        f'\t\t<guid isPermaLink="false">{SITE}/?p={post_id}</guid>',
        "\t\t<description></description>",
        f"\t\t<content:encoded>{cdata(content(rng, vocabulary))}</content:encoded>",
        f"\t\t<excerpt:encoded>{cdata('')}</excerpt:encoded>",
        f"\t\t<wp:post_id>{post_id}</wp:post_id>",
        f"\t\t<wp:post_date>{cdata(local.strftime('%Y-%m-%d %H:%M:%S'))}</wp:post_date>",
        f"\t\t<wp:post_date_gmt>{cdata(gmt)}</wp:post_date_gmt>",
        f"\t\t<wp:post_modified>{cdata(local.strftime('%Y-%m-%d %H:%M:%S'))}</wp:post_modified>",
        f"\t\t<wp:post_modified_gmt>{cdata(published.strftime('%Y-%m-%d %H:%M:%S'))}</wp:post_modified_gmt>",
        f"\t\t<wp:comment_status>{cdata('open')}</wp:comment_status>",
        f"\t\t<wp:ping_status>{cdata('open')}</wp:ping_status>",
        f"\t\t<wp:post_name>{cdata(slug)}</wp:post_name>",
        f"\t\t<wp:status>{cdata(status)}</wp:status>",
        "\t\t<wp:post_parent>0</wp:post_parent>",
        f"\t\t<wp:menu_order>{n if page else 0}</wp:menu_order>",
        f"\t\t<wp:post_type>{cdata('page' if page else 'post')}</wp:post_type>",
        f"\t\t<wp:post_password>{cdata('')}</wp:post_password>",
        "\t\t<wp:is_sticky>0</wp:is_sticky>",
        *terms,
        "\t</item>",
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, required=True, help="items to write, pages included")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    vocabulary = words(rng)
    tags = sorted({" ".join(rng.choices(vocabulary, k=rng.randint(1, 2))).capitalize() for _ in range(200)})
    with open(args.out, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8" ?>\n'
                  '<!-- generator="bench/gen_wxr.py" (a WordPress eXtended RSS file, as WordPress 6 writes one) -->\n'
                  '<rss version="2.0"\n'
                  '\txmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"\n'
                  '\txmlns:content="http://purl.org/rss/1.0/modules/content/"\n'
                  '\txmlns:wfw="http://wellformedweb.org/CommentAPI/"\n'
                  '\txmlns:dc="http://purl.org/dc/elements/1.1/"\n'
                  '\txmlns:wp="http://wordpress.org/export/1.2/"\n>\n<channel>\n'
                  f"\t<title>Bench Notes</title>\n\t<link>{SITE}</link>\n"
                  "\t<description>A generated blog</description>\n\t<language>en-US</language>\n"
                  f"\t<wp:wxr_version>1.2</wp:wxr_version>\n\t<wp:base_site_url>{SITE}</wp:base_site_url>\n"
                  f"\t<wp:base_blog_url>{SITE}</wp:base_blog_url>\n")
        used_slugs = set()
        for n in range(args.posts):
            out.write(item(rng, vocabulary, tags, n, used_slugs) + "\n")
        out.write("</channel>\n</rss>\n")


if __name__ == "__main__":
    main()
