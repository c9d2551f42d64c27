import { describe, expect, it } from 'vitest';
import type { Block, Post } from './api';
import {
  blocksOf,
  editorReducer,
  emptyBlock,
  existingPostState,
  isDirty,
  newPostState,
  primaryLabel,
  showsDraftCheckbox,
  type EditorAction,
  type EditorState,
} from './editor-state';
import { fixtureRules } from '../../test/block-rules-fixture';

const rules = fixtureRules();

const heading = (text: string): Block => ({ type: 'heading', value: { text } });
const paragraph = (text: string): Block => ({ type: 'paragraph', value: { text } });
const spotify = (url: string): Block => ({ type: 'spotify', value: { url } });

function post(overrides: Partial<Post> = {}, children: Block[] = [heading('Hello'), paragraph('World')]): Post {
  return {
    shortId: 'ab12cd34',
    permalink: 'http://alice.localhost:8080/hello-ab12cd34',
    title: 'Hello',
    publishedAt: '2026-05-04T10:00:00Z',
    scheduledAt: null,
    createdAt: '2026-05-04T10:00:00Z',
    updatedAt: '2026-05-04T10:00:00Z',
    body: { type: 'root', children },
    tags: [],
    page: false,
    ...overrides,
  };
}

const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);
const types = (state: EditorState) => state.blocks.map((b) => b.type);
const texts = (state: EditorState) => blocksOf(state).map((b) => ('text' in b.value ? b.value.text : b.value.url));

describe('starting the editor', () => {
  it('starts a new post with an empty heading and an empty paragraph, not a draft', () => {
    const state = newPostState(rules);
    expect(blocksOf(state)).toEqual([heading(''), paragraph('')]);
    expect(state.draft).toBe(false);
    expect(state.persisted).toBe(false);
    expect(state.editing).toBe(false);
    expect(state.errors).toEqual({});
    expect(isDirty(state)).toBe(false);
  });

  it('restores a local draft for a new post', () => {
    const state = newPostState(rules, { blocks: [spotify('https://open.spotify.com/track/1')], draft: true });
    expect(blocksOf(state)).toEqual([spotify('https://open.spotify.com/track/1')]);
    expect(state.draft).toBe(true);
  });

  it('loads an existing post, with the draft flag set while it is unpublished', () => {
    const published = existingPostState(post(), rules);
    expect(blocksOf(published)).toEqual([heading('Hello'), paragraph('World')]);
    expect(published.persisted).toBe(true);
    expect(published.draft).toBe(false);
    expect(existingPostState(post({ publishedAt: null }), rules).draft).toBe(true);
  });
});

describe('primary button label', () => {
  it("is 'Save' for a persisted post that is published, whatever the draft flag", () => {
    expect(primaryLabel({ persisted: true, publishedAt: '2026-05-04T10:00:00Z', draft: false })).toBe('Save');
    expect(primaryLabel({ persisted: true, publishedAt: '2026-05-04T10:00:00Z', draft: true })).toBe('Save');
  });

  it("is 'Publish' for a persisted unpublished post with the draft flag off", () => {
    expect(primaryLabel({ persisted: true, publishedAt: null, draft: false })).toBe('Publish');
  });

  it("is 'Save as Draft' for a post not saved yet with the draft flag on", () => {
    expect(primaryLabel({ persisted: false, publishedAt: null, draft: true })).toBe('Save as Draft');
  });

  it("is 'Publish' otherwise", () => {
    expect(primaryLabel({ persisted: false, publishedAt: null, draft: false })).toBe('Publish');
    expect(primaryLabel({ persisted: true, publishedAt: null, draft: true })).toBe('Publish');
  });

  it('follows the draft toggle of a new post', () => {
    const state = newPostState(rules);
    expect(primaryLabel(state)).toBe('Publish');
    expect(primaryLabel(run(state, { type: 'setDraft', draft: true }))).toBe('Save as Draft');
    expect(primaryLabel(existingPostState(post(), rules))).toBe('Save');
  });

  it("offers 'Mark as draft' only before saving or while unpublished", () => {
    expect(showsDraftCheckbox(newPostState(rules))).toBe(true);
    expect(showsDraftCheckbox(existingPostState(post({ publishedAt: null }), rules))).toBe(true);
    expect(showsDraftCheckbox(existingPostState(post(), rules))).toBe(false);
  });
});

describe('changing blocks', () => {
  const start = () => existingPostState(post({}, [heading('A'), paragraph('B'), paragraph('C')]), rules);

  it('edits one block', () => {
    const state = run(start(), { type: 'edit', index: 1, value: { text: 'B2' } });
    expect(texts(state)).toEqual(['A', 'B2', 'C']);
    expect(isDirty(state)).toBe(true);
  });

  it('inserts at a position, including before the first block and after the last', () => {
    let state = run(start(), { type: 'insert', index: 0, block: emptyBlock('link') });
    expect(types(state)).toEqual(['link', 'heading', 'paragraph', 'paragraph']);
    state = run(state, { type: 'insert', index: 4, block: emptyBlock('tweet') });
    expect(types(state)).toEqual(['link', 'heading', 'paragraph', 'paragraph', 'tweet']);
    state = run(state, { type: 'insert', index: 2, block: emptyBlock('image') });
    expect(types(state)).toEqual(['link', 'heading', 'image', 'paragraph', 'paragraph', 'tweet']);
    expect(new Set(state.blocks.map((b) => b.key)).size).toBe(6);
  });

  it('ignores inserts out of range', () => {
    const state = start();
    expect(run(state, { type: 'insert', index: 4, block: emptyBlock('link') })).toBe(state);
    expect(run(state, { type: 'insert', index: -1, block: emptyBlock('link') })).toBe(state);
  });

  it('swaps neighbours and keeps each block its key', () => {
    const state = start();
    const swapped = run(state, { type: 'swap', from: 2, to: 1 });
    expect(texts(swapped)).toEqual(['A', 'C', 'B']);
    expect(swapped.blocks[1]?.key).toBe(state.blocks[2]?.key);
    expect(texts(run(swapped, { type: 'swap', from: 0, to: 1 }))).toEqual(['C', 'A', 'B']);
  });

  it('ignores swaps unless both indices are in range', () => {
    const state = start();
    expect(run(state, { type: 'swap', from: 0, to: -1 })).toBe(state);
    expect(run(state, { type: 'swap', from: 2, to: 3 })).toBe(state);
    expect(run(state, { type: 'swap', from: 5, to: 4 })).toBe(state);
    expect(texts(run(state, { type: 'swap', from: 0, to: -1 }))).toEqual(['A', 'B', 'C']);
  });

  it('deletes a block and ignores an index out of range', () => {
    const state = start();
    expect(texts(run(state, { type: 'remove', index: 1 }))).toEqual(['A', 'C']);
    expect(run(state, { type: 'remove', index: 3 })).toBe(state);
  });

  it('toggles edit mode without counting it as a change', () => {
    const state = run(start(), { type: 'toggleEditing' });
    expect(state.editing).toBe(true);
    expect(isDirty(state)).toBe(false);
    expect(run(state, { type: 'toggleEditing' }).editing).toBe(false);
  });

  it('is clean again once saved, and a saved new post becomes persisted', () => {
    const edited = run(
      newPostState(rules),
      { type: 'edit', index: 0, value: { text: 'Title' } },
      { type: 'edit', index: 1, value: { text: 'Body' } },
    );
    expect(isDirty(edited)).toBe(true);
    const saved = run(edited, { type: 'saved', post: post() });
    expect(isDirty(saved)).toBe(false);
    expect(saved.persisted).toBe(true);
    expect(primaryLabel(saved)).toBe('Save');
  });
});

describe('validation reruns', () => {
  // An empty heading, a paragraph, and a bad spotify URL: two messages on submit.
  const failed = () =>
    run(
      existingPostState(
        post({ publishedAt: null }, [heading(''), paragraph('Body'), spotify('https://example.com/x')]),
        rules,
      ),
      { type: 'validate' },
    );

  it('shows every message at its block on submit', () => {
    expect(failed().errors).toEqual({ 0: "Can't be blank", 2: 'Should start with https://open.spotify.com/' });
  });

  it('does not check anything before the first submit', () => {
    const state = run(
      newPostState(rules),
      { type: 'edit', index: 0, value: { text: '' } },
      { type: 'insert', index: 2, block: emptyBlock('link') },
      { type: 'swap', from: 0, to: 1 },
      { type: 'remove', index: 2 },
    );
    expect(state.errors).toEqual({});
  });

  it('reruns after each edit once messages show', () => {
    let state = run(failed(), { type: 'edit', index: 0, value: { text: 'Title' } });
    expect(state.errors).toEqual({ 2: 'Should start with https://open.spotify.com/' });
    state = run(state, { type: 'edit', index: 1, value: { text: ' ' } });
    expect(state.errors).toEqual({ 1: "Can't be blank", 2: 'Should start with https://open.spotify.com/' });
    state = run(
      state,
      { type: 'edit', index: 1, value: { text: 'ok' } },
      { type: 'edit', index: 2, value: { url: 'https://open.spotify.com/track/1' } },
    );
    expect(state.errors).toEqual({});
    // All fixed: the next edit checks nothing until the next submit.
    expect(run(state, { type: 'edit', index: 0, value: { text: '' } }).errors).toEqual({});
  });

  it('moves the messages with the blocks after a swap', () => {
    const state = run(failed(), { type: 'swap', from: 0, to: 1 });
    expect(state.errors).toEqual({ 1: "Can't be blank", 2: 'Should start with https://open.spotify.com/' });
  });

  it('reruns after a delete', () => {
    const state = run(failed(), { type: 'remove', index: 0 });
    expect(state.errors).toEqual({ 1: 'Should start with https://open.spotify.com/' });
  });

  it('reruns after an insert, leaving out the new (still empty) block', () => {
    const state = run(failed(), { type: 'insert', index: 1, block: emptyBlock('heading') });
    expect(types(state)).toEqual(['heading', 'heading', 'paragraph', 'spotify']);
    expect(state.errors).toEqual({ 0: "Can't be blank", 3: 'Should start with https://open.spotify.com/' });
    // The next edit checks every block again, the new one included.
    expect(run(state, { type: 'edit', index: 0, value: { text: 'Title' } }).errors).toEqual({
      1: "Can't be blank",
      3: 'Should start with https://open.spotify.com/',
    });
  });

  it("takes the server's messages by index", () => {
    const state = run(existingPostState(post(), rules), {
      type: 'serverErrors',
      errors: { 1: 'Should be at most 20000 characters' },
    });
    expect(state.errors).toEqual({ 1: 'Should be at most 20000 characters' });
  });
});
