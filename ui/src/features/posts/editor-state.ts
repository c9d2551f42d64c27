// The post editor's state and every change to it, as one pure reducer (ui/README.md, 'Posts').
// No DOM, no network: the editor component dispatches, these functions decide.
import type { BlockRules } from '../../config/app-config';
import type { Block, BlockType, Post, Visibility } from './api';
import { isFutureInput, toLocalInput } from './schedule';
import { hasErrors, validateBlocks, type BlockErrors } from './validation';

/** A block in the editor: the stored block plus a key that follows it when blocks move. */
export type EditorBlock = Block & { key: string };

/** Everything the editor shows. */
export interface EditorState {
  blocks: EditorBlock[];
  /** The draft flag sent on save ('Mark as draft'). */
  draft: boolean;
  /** Validation messages by block index. */
  errors: BlockErrors;
  /** Edit mode: the add, move and remove controls show. */
  editing: boolean;
  /** The post exists on the server. */
  persisted: boolean;
  /** When the post was published; null for a draft or a post not saved yet. */
  publishedAt: string | null;
  /** The date input's value: when to publish, in local time ('2030-01-31T09:00'); '' for now. */
  publishAt: string;
  /** The server's block rules (the page config's `blockRules`). */
  rules: BlockRules;
  /** Counts the user's changes to blocks and the draft flag. */
  revision: number;
  /** `revision` when the post was last saved (or loaded). */
  savedRevision: number;
  /** Source of block keys. */
  nextKey: number;
  /** The post's tags, as stored. */
  tags: string[];
  /** Whether it is a page. */
  page: boolean;
  /** 'public' or 'unlisted' (a page is always public). */
  visibility: Visibility;
  /** The visibility the server last stored (a new post: 'public'). */
  savedVisibility: Visibility;
  /** Announce to followers on the save that makes a published unlisted post public. */
  announce: boolean;
  /** Messages about the tags (`tags`) and the page flag (`page`). */
  optionErrors: OptionErrors;
}

/** Messages about a post's tags and its page flag. */
export interface OptionErrors {
  tags?: string;
  page?: string;
}

/** Blocks and the draft flag: what a local draft holds. */
export interface EditorContent {
  blocks: Block[];
  draft: boolean;
}

export type EditorAction =
  /** Changes fields of the block at `index`, e.g. `{text: 'Hello'}`. */
  | { type: 'edit'; index: number; value: Record<string, string> }
  /** Puts `block` at `index` (0..length); the blocks from there on move down one. */
  | { type: 'insert'; index: number; block: Block }
  /** Removes the block at `index` (the editor asks for confirmation first). */
  | { type: 'remove'; index: number }
  /** Swaps two blocks; ignored unless both indices are in range. */
  | { type: 'swap'; from: number; to: number }
  | { type: 'setDraft'; draft: boolean }
  /** Replaces the tags (already checked by the tag field). */
  | { type: 'setTags'; tags: string[] }
  | { type: 'setPage'; page: boolean }
  | { type: 'setVisibility'; visibility: Visibility }
  | { type: 'setAnnounce'; announce: boolean }
  /** Messages about the tags and the page flag (the editor's or the server's). */
  | { type: 'optionErrors'; errors: OptionErrors }
  /** The date input changed (a datetime-local value, '' when cleared). */
  | { type: 'setPublishAt'; publishAt: string }
  | { type: 'toggleEditing' }
  /** Submit: checks every block and shows the messages. */
  | { type: 'validate' }
  /** The server refused the save: its messages by block index. */
  | { type: 'serverErrors'; errors: BlockErrors }
  /** The server stored the post. */
  | { type: 'saved'; post: Post }
  /** The post was taken back to a draft (docs/api.md 8.6.1); what is being typed stays, unsaved. */
  | { type: 'unpublished'; post: Post }
  /** Replaces the content: a restored local draft, or the merge of an edit conflict (docs/edit-conflicts.md). */
  | { type: 'restore'; content: EditorContent & { tags?: string[]; page?: boolean } };

/** A block of `type` with empty values. */
export function emptyBlock(type: BlockType): Block {
  switch (type) {
    case 'heading':
      return { type, value: { text: '' } };
    case 'paragraph':
      return { type, value: { text: '' } };
    case 'link':
      return { type, value: { url: '', title: '' } };
    case 'image':
      return { type, value: { url: '', alt: '', caption: '' } };
    case 'spotify':
    case 'tweet':
      return { type, value: { url: '' } };
  }
}

function keyed(blocks: readonly Block[], firstKey: number): EditorBlock[] {
  return blocks.map((block, i) => ({ ...block, key: `b${firstKey + i}` }) as EditorBlock);
}

function initial(blocks: readonly Block[], draft: boolean, rules: BlockRules, post: Post | null): EditorState {
  return {
    blocks: keyed(blocks, 0),
    draft,
    errors: {},
    editing: false,
    persisted: post !== null,
    publishedAt: post?.publishedAt ?? null,
    publishAt: post?.scheduledAt ? toLocalInput(post.scheduledAt) : '',
    rules,
    revision: 0,
    savedRevision: 0,
    nextKey: blocks.length,
    tags: post?.tags ?? [],
    page: post?.page ?? false,
    visibility: post?.visibility ?? 'public',
    savedVisibility: post?.visibility ?? 'public',
    announce: false,
    optionErrors: {},
  };
}

/**
 * A new post: an empty heading and an empty paragraph, unless a local draft is restored.
 * A restored draft without blocks starts from the empty ones, keeping its draft flag.
 */
export function newPostState(rules: BlockRules, restored: EditorContent | null = null): EditorState {
  const blocks =
    restored && restored.blocks.length > 0 ? restored.blocks : [emptyBlock('heading'), emptyBlock('paragraph')];
  return initial(blocks, restored?.draft ?? false, rules, null);
}

/**
 * An existing post: its blocks; the draft flag is set while it is unpublished and not scheduled,
 * so saving keeps it a draft (and a scheduled post scheduled).
 */
export function existingPostState(post: Post, rules: BlockRules): EditorState {
  return initial(post.body.children, post.publishedAt === null && !post.scheduledAt, rules, post);
}

/** The blocks as the server takes them (without the editor's keys). */
export function blocksOf(state: Pick<EditorState, 'blocks'>): Block[] {
  return state.blocks.map(({ key: _key, ...block }) => block as Block);
}

/** What the local draft stores. */
export function contentOf(state: EditorState): EditorContent {
  return { blocks: blocksOf(state), draft: state.draft };
}

/** Whether the user changed something since the post was loaded or last saved. */
export function isDirty(state: EditorState): boolean {
  return state.revision !== state.savedRevision;
}

/**
 * The primary button's label: 'Save' for a published post, 'Schedule' when the save will publish it
 * at a time still to come, 'Publish' when it will publish it now, 'Save as Draft' for a new post kept
 * a draft. A saved, unpublished post with 'Mark as draft' ticked still says 'Publish' (the product's
 * rule, kept as written; the save keeps it a draft).
 */
export function primaryLabel(
  state: Pick<EditorState, 'persisted' | 'publishedAt' | 'draft'> & Partial<Pick<EditorState, 'publishAt'>>,
  now: Date = new Date(),
): string {
  if (state.persisted && state.publishedAt !== null) return 'Save';
  if (!state.draft && isFutureInput(state.publishAt ?? '', now)) return 'Schedule';
  if (state.persisted && !state.draft) return 'Publish';
  if (!state.persisted && state.draft) return 'Save as Draft';
  return 'Publish';
}

/**
 * 'Announce to followers' shows when the save makes a published unlisted post public: without it
 * the post becomes public quietly (docs/unlisted.md).
 */
export function showsAnnounce(
  state: Pick<EditorState, 'publishedAt' | 'savedVisibility' | 'visibility' | 'page'>,
): boolean {
  return (
    state.publishedAt !== null && !state.page && state.savedVisibility === 'unlisted' && state.visibility === 'public'
  );
}

/** 'Mark as draft' shows while the post is not saved yet or not published (a published post is unpublished from the More menu). */
export function showsDraftCheckbox(state: Pick<EditorState, 'persisted' | 'publishedAt'>): boolean {
  return !state.persisted || state.publishedAt === null;
}

/** Whether another block may be added. */
export function canInsert(state: Pick<EditorState, 'blocks' | 'rules'>): boolean {
  return state.blocks.length < state.rules.maxBlocks;
}

const inRange = (state: EditorState, index: number) =>
  Number.isInteger(index) && index >= 0 && index < state.blocks.length;

/**
 * Once messages show, they follow the blocks: after an edit, insert, remove or swap the blocks
 * are checked again, skipping `exclude` (a block just added, which the user has not filled in
 * yet). Before the first failed submit nothing is checked, so untouched empty blocks stay quiet.
 */
function revalidate(state: EditorState, exclude?: number): EditorState {
  if (!hasErrors(state.errors)) return state;
  return { ...state, errors: validateBlocks(blocksOf(state), state.rules, exclude) };
}

/** A user change to the content: counted, so the local draft and the leave warning know. */
const changed = (state: EditorState, patch: Partial<EditorState>): EditorState => ({
  ...state,
  ...patch,
  revision: state.revision + 1,
});

/** The editor's reducer. Actions that do not apply (an index out of range) return `state` itself. */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'edit': {
      if (!inRange(state, action.index)) return state;
      const blocks = state.blocks.map((block, i) =>
        i === action.index ? ({ ...block, value: { ...block.value, ...action.value } } as EditorBlock) : block,
      );
      return revalidate(changed(state, { blocks }));
    }
    case 'insert': {
      const { index } = action;
      if (!Number.isInteger(index) || index < 0 || index > state.blocks.length || !canInsert(state)) return state;
      const block = { ...action.block, key: `b${state.nextKey}` } as EditorBlock;
      const blocks = [...state.blocks.slice(0, index), block, ...state.blocks.slice(index)];
      return revalidate(changed(state, { blocks, nextKey: state.nextKey + 1 }), index);
    }
    case 'remove': {
      if (!inRange(state, action.index)) return state;
      const blocks = state.blocks.filter((_, i) => i !== action.index);
      return revalidate(changed(state, { blocks }));
    }
    case 'swap': {
      const { from, to } = action;
      if (!inRange(state, from) || !inRange(state, to) || from === to) return state;
      const blocks = [...state.blocks];
      [blocks[from], blocks[to]] = [blocks[to] as EditorBlock, blocks[from] as EditorBlock];
      return revalidate(changed(state, { blocks }));
    }
    case 'setDraft':
      if (action.draft === state.draft) return state;
      return changed(state, { draft: action.draft });
    case 'setTags':
      return changed(state, { tags: action.tags, optionErrors: { ...state.optionErrors, tags: undefined } });
    case 'setPage':
      if (action.page === state.page) return state;
      return changed(state, { page: action.page, optionErrors: { ...state.optionErrors, page: undefined } });
    case 'setVisibility':
      if (action.visibility === state.visibility) return state;
      return changed(state, { visibility: action.visibility, announce: false });
    case 'setAnnounce':
      return { ...state, announce: action.announce };
    case 'optionErrors':
      return { ...state, optionErrors: action.errors };
    case 'setPublishAt':
      if (action.publishAt === state.publishAt) return state;
      return { ...state, publishAt: action.publishAt };
    case 'toggleEditing':
      return { ...state, editing: !state.editing };
    case 'validate':
      return { ...state, errors: validateBlocks(blocksOf(state), state.rules) };
    case 'serverErrors':
      return { ...state, errors: action.errors };
    case 'restore': {
      const { blocks, draft, tags = state.tags, page = state.page } = action.content;
      const restored = keyed(blocks, state.nextKey);
      const nextKey = state.nextKey + blocks.length;
      return changed(state, { blocks: restored, nextKey, draft, tags, page, errors: {}, optionErrors: {} });
    }
    case 'unpublished': {
      const saved = editorReducer(state, { type: 'saved', post: action.post });
      return { ...saved, draft: true, savedRevision: state.savedRevision };
    }
    case 'saved':
      return {
        ...state,
        persisted: true,
        publishedAt: action.post.publishedAt,
        publishAt: action.post.scheduledAt ? toLocalInput(action.post.scheduledAt) : '',
        draft: action.post.publishedAt === null ? state.draft : false,
        errors: {},
        optionErrors: {},
        tags: action.post.tags ?? state.tags,
        page: action.post.page ?? state.page,
        visibility: action.post.visibility ?? state.visibility,
        savedVisibility: action.post.visibility ?? state.visibility,
        announce: false,
        savedRevision: state.revision,
      };
  }
}
