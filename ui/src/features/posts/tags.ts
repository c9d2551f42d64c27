// A post's tags and the page flag: the server's rules (the page config's `postRules`, from
// src/domain/tags.rs) applied in the editor with the server's messages, and the API calls for
// the blog's tags and pages (docs/api.md, 'Tags' and 'Pages').
import type { PostRules } from '../../config/app-config';
import { api } from '../../lib/api';

/** Tags as typed, checked and normalized the way the server does: stored tags, or messages by the server's keys (`tags`, `tags.N`). */
export type TagsResult = { tags: string[]; errors: null } | { tags: string[]; errors: Record<string, string> };

/** Most entries read before a tag list is refused unread (the server's `MAX_TAG_ENTRIES`). */
const MAX_TAG_ENTRIES = 100;

const isAsciiWord = (tag: string) => /^[a-z0-9-]*$/.test(tag);

/** One tag as stored, or the message saying what is wrong with it. */
export function checkTag(given: string, rules: PostRules): { tag: string } | { problem: string } {
  // ASCII lowercase only, like the server: a Kelvin sign must not turn into a "k".
  const tag = given.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (tag === '') return { problem: "Can't be blank" };
  if ([...tag].length > rules.maxTag) return { problem: `Should be at most ${rules.maxTag} characters` };
  if (/\s/u.test(tag)) return { problem: 'Should have no spaces: join words with hyphens, as in road-trip' };
  if (!isAsciiWord(tag)) return { problem: 'Should use only the letters a to z, digits and hyphens' };
  if (tag.startsWith('-') || tag.endsWith('-') || tag.includes('--'))
    return { problem: 'Should not start or end with a hyphen or have two in a row' };
  return { tag };
}

const tooMany = (rules: PostRules) => `A post can have at most ${rules.maxTags} tags`;

/** The post's tags as the server would store them, or its messages. */
export function normalizeTags(raw: readonly string[], rules: PostRules): TagsResult {
  if (raw.length > MAX_TAG_ENTRIES) return { tags: [], errors: { tags: tooMany(rules) } };
  const tags: string[] = [];
  const errors: Record<string, string> = {};
  for (const [index, given] of raw.entries()) {
    if (tags.length > rules.maxTags) break;
    const checked = checkTag(given, rules);
    if ('problem' in checked) errors[`tags.${index}`] = checked.problem;
    else if (!tags.includes(checked.tag)) tags.push(checked.tag);
  }
  if (tags.length > rules.maxTags) return { tags, errors: { tags: tooMany(rules) } };
  return Object.keys(errors).length > 0 ? { tags, errors } : { tags, errors: null };
}

/**
 * The address a page with this title gets, for titles of plain ASCII words (the server
 * transliterates others); null when the editor cannot tell.
 */
export function pageAddress(title: string): string | null {
  if (!/^[\x20-\x7e]*$/.test(title)) return null;
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? null : slug;
}

/** Why a page with this title may not have its address, if the editor can tell. */
export function pageProblem(title: string, rules: PostRules): string | null {
  const slug = pageAddress(title);
  if (slug === null) return null;
  if (rules.reservedPaths.includes(slug) || slug.startsWith(rules.reservedPrefix))
    return `The address /${slug} belongs to the blog itself: give the page another title`;
  return null;
}

/** A tag of the blog and how many posts carry it. */
export interface BlogTag {
  name: string;
  posts: number;
}

/** Every tag of the blog's posts (drafts included), most used first. */
export async function fetchTags(blogId: number, signal?: AbortSignal): Promise<BlogTag[]> {
  const { data } = await api.get<{ tags: BlogTag[] }>(`/api/my/blogs/${blogId}/tags`, signal ? { signal } : {});
  return data.tags;
}

/** A page of the blog, as its navigation lists it. */
export interface BlogPage {
  shortId: string;
  title: string;
  /** `/{slug}` on the blog. */
  path: string;
  published: boolean;
}

/** The blog's pages in navigation order, drafts included. */
export async function fetchPages(blogId: number, signal?: AbortSignal): Promise<BlogPage[]> {
  const { data } = await api.get<{ pages: BlogPage[] }>(`/api/my/blogs/${blogId}/pages`, signal ? { signal } : {});
  return data.pages;
}

/** Puts the blog's pages in this order (each of them once); resolves with the new list. */
export async function reorderPages(blogId: number, shortIds: string[]): Promise<BlogPage[]> {
  const { data } = await api.put<{ pages: BlogPage[] }>(`/api/my/blogs/${blogId}/pages`, { pages: shortIds });
  return data.pages;
}
