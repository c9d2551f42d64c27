// Local drafts of existing posts (docs/edit-conflicts.md): one per post, kept in the browser
// under `quire.draft.{blogId}.{shortId}` with the version it was based on and when it was
// written, so a closed tab or a crash loses nothing. Written as the blogger types, removed on a
// successful save or a discard, dropped after 30 days. A full or disabled storage only costs the
// local copy. (A new post's draft is local-draft.ts, under 'new'.)
import type { EditorContent } from './editor-state';
import { defaultStorage, forgetStored, loadStored, parseLocalDraft, storeJson } from './local-draft';

/** The storage keys of existing posts' drafts start with this. */
export const POST_DRAFT_PREFIX = 'quire.draft.';

/** How long a draft is kept: 30 days. */
export const POST_DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** An existing post's local draft. */
export interface PostDraft extends EditorContent {
  tags: string[];
  page: boolean;
  /** The post's version the draft was based on; undefined when the post had none. */
  version?: number;
  /** When it was written (milliseconds since the epoch). */
  savedAt: number;
}

/** The storage key of the draft of post `shortId` of blog `blogId`. */
export function postDraftKey(blogId: number, shortId: string): string {
  return `${POST_DRAFT_PREFIX}${blogId}.${shortId}`;
}

/** The draft in `raw` (JSON-parsed), or null when its shape is wrong. */
export function parsePostDraft(raw: unknown): PostDraft | null {
  const content = parseLocalDraft(raw);
  if (!content) return null;
  const { tags, page, version, savedAt } = raw as Record<string, unknown>;
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) return null;
  if (typeof page !== 'boolean' || typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return null;
  if (version !== undefined && !(typeof version === 'number' && Number.isSafeInteger(version) && version > 0))
    return null;
  return { ...content, tags: tags as string[], page, savedAt, ...(version !== undefined ? { version } : {}) };
}

/** The post's stored draft; a malformed one is deleted and null returned. */
export function loadPostDraft(
  blogId: number,
  shortId: string,
  storage: Storage | null = defaultStorage(),
): PostDraft | null {
  return loadStored(storage, postDraftKey(blogId, shortId), parsePostDraft);
}

/** Stores the post's draft. */
export function savePostDraft(
  blogId: number,
  shortId: string,
  draft: PostDraft,
  storage: Storage | null = defaultStorage(),
): void {
  storeJson(storage, postDraftKey(blogId, shortId), draft);
}

/** Forgets the post's draft (after a save, or when the blogger discards it). */
export function clearPostDraft(blogId: number, shortId: string, storage: Storage | null = defaultStorage()): void {
  forgetStored(storage, postDraftKey(blogId, shortId));
}

/** Drops every post draft written more than 30 days before `now`, and any that cannot be read. */
export function pruneOldPostDrafts(now: number = Date.now(), storage: Storage | null = defaultStorage()): void {
  if (!storage) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(POST_DRAFT_PREFIX)) keys.push(key);
    }
    for (const key of keys) {
      const draft = loadStored(storage, key, parsePostDraft); // a malformed one is deleted
      if (draft && now - draft.savedAt > POST_DRAFT_MAX_AGE_MS) storage.removeItem(key);
    }
  } catch {
    // A storage that cannot be listed keeps its drafts; nothing breaks.
  }
}
