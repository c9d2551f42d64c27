// The local draft of a new post: its blocks and draft flag, kept in the browser
// under the key 'new' so a half-written post survives a reload. Saved on each edit and draft
// toggle, restored when the editor opens, deleted when its shape is wrong, cleared once the
// post is created.
import type { Block, BlockType } from './api';
import type { EditorContent } from './editor-state';

/** The storage key of the new post's draft. */
export const LOCAL_DRAFT_KEY = 'new';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields each block type's value holds; all strings. A type not here is not one the editor knows. */
const FIELDS: Record<BlockType, readonly string[]> = {
  heading: ['text'],
  paragraph: ['text'],
  link: ['url', 'title'],
  image: ['url'],
  spotify: ['url'],
  tweet: ['url'],
};

/** Fields a value may lack (a draft kept before they existed): they start empty. */
const OPTIONAL_FIELDS: Partial<Record<BlockType, readonly string[]>> = {
  image: ['alt', 'caption'],
};

function parseBlock(raw: unknown): Block | null {
  if (!isObject(raw) || typeof raw.type !== 'string' || !isObject(raw.value)) return null;
  if (!Object.hasOwn(FIELDS, raw.type)) return null;
  const type = raw.type as BlockType;
  const source = raw.value;
  const value: Record<string, string> = {};
  for (const field of FIELDS[type]) {
    const text = source[field];
    if (typeof text !== 'string') return null;
    value[field] = text;
  }
  for (const field of OPTIONAL_FIELDS[type] ?? []) {
    const text = source[field];
    if (text !== undefined && typeof text !== 'string') return null;
    value[field] = text ?? '';
  }
  return { type, value } as Block;
}

/** The draft in `raw` (already JSON-parsed), or null when its shape is wrong. */
export function parseLocalDraft(raw: unknown): EditorContent | null {
  if (!isObject(raw) || !Array.isArray(raw.blocks) || typeof raw.draft !== 'boolean') return null;
  const blocks: Block[] = [];
  for (const item of raw.blocks) {
    const block = parseBlock(item);
    if (!block) return null;
    blocks.push(block);
  }
  return { blocks, draft: raw.draft };
}

/** The browser's local storage; null when it is disabled (the editor then works without local drafts). */
export function defaultStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the editor simply works without a local draft
  }
}

/** What `parse` makes of the JSON stored under `key`; a value it refuses (null) is deleted. */
export function loadStored<T>(storage: Storage | null, key: string, parse: (raw: unknown) => T | null): T | null {
  if (!storage) return null;
  try {
    const text = storage.getItem(key);
    if (text === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const value = parse(parsed);
    if (value === null) storage.removeItem(key);
    return value;
  } catch {
    return null;
  }
}

/** Stores `value` as JSON under `key`; a full or disabled storage only costs the local copy. */
export function storeJson(storage: Storage | null, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch (error) {
    // Full or disabled storage only costs the local copy; the editor keeps working.
    console.warn('quire: the local draft could not be saved', error);
  }
}

/** Removes `key`. */
export function forgetStored(storage: Storage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing stored that could be read back either.
  }
}

/** The stored draft; a malformed one is deleted and null returned. */
export function loadLocalDraft(storage: Storage | null = defaultStorage()): EditorContent | null {
  return loadStored(storage, LOCAL_DRAFT_KEY, parseLocalDraft);
}

/** Stores the new post's blocks and draft flag. */
export function saveLocalDraft(content: EditorContent, storage: Storage | null = defaultStorage()): void {
  storeJson(storage, LOCAL_DRAFT_KEY, { blocks: content.blocks, draft: content.draft });
}

/** Forgets the new post's draft (after it was created). */
export function clearLocalDraft(storage: Storage | null = defaultStorage()): void {
  forgetStored(storage, LOCAL_DRAFT_KEY);
}
