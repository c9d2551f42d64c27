import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearPostDraft,
  loadPostDraft,
  POST_DRAFT_MAX_AGE_MS,
  postDraftKey,
  pruneOldPostDrafts,
  savePostDraft,
  type PostDraft,
} from './post-drafts';

const draft = (savedAt: number, text = 'Typed before the crash'): PostDraft => ({
  blocks: [
    { type: 'heading', value: { text: 'Notes' } },
    { type: 'paragraph', value: { text } },
  ],
  draft: false,
  tags: ['travel'],
  page: false,
  version: 3,
  savedAt,
});

beforeEach(() => localStorage.clear());

describe('the local drafts of existing posts', () => {
  it('are kept per blog and post, with their version and time, and read back', () => {
    savePostDraft(7, 'abc123', draft(1000));
    savePostDraft(7, 'def456', draft(2000, 'Another post'));
    expect(postDraftKey(7, 'abc123')).toBe('quire.draft.7.abc123');
    expect(loadPostDraft(7, 'abc123')).toEqual(draft(1000));
    expect(loadPostDraft(7, 'def456')?.blocks[1]).toEqual({ type: 'paragraph', value: { text: 'Another post' } });
    expect(loadPostDraft(8, 'abc123')).toBeNull();
    expect(localStorage.getItem('new')).toBeNull(); // the new post's draft is another key
  });

  it('are removed on a save or a discard', () => {
    savePostDraft(7, 'abc123', draft(1000));
    clearPostDraft(7, 'abc123');
    expect(loadPostDraft(7, 'abc123')).toBeNull();
  });

  it('are deleted when their shape is wrong', () => {
    const bad = [
      'not json',
      '{"blocks": [], "draft": false}',
      JSON.stringify({ ...draft(1), version: -2 }),
      JSON.stringify({ ...draft(1), version: '3' }),
      JSON.stringify({ ...draft(1), tags: [1] }),
      JSON.stringify({ ...draft(1), savedAt: 'yesterday' }),
    ];
    for (const raw of bad) {
      localStorage.setItem(postDraftKey(1, 'x'), raw);
      expect(loadPostDraft(1, 'x'), raw).toBeNull();
      expect(localStorage.getItem(postDraftKey(1, 'x')), raw).toBeNull();
    }
  });

  it('older than 30 days are dropped, newer ones and other keys kept', () => {
    const now = 100 * POST_DRAFT_MAX_AGE_MS;
    savePostDraft(1, 'old', draft(now - POST_DRAFT_MAX_AGE_MS - 1));
    savePostDraft(1, 'recent', draft(now - 1000));
    localStorage.setItem(postDraftKey(1, 'broken'), '{');
    localStorage.setItem('new', '{"blocks": [], "draft": true}');
    pruneOldPostDrafts(now);
    expect(loadPostDraft(1, 'old')).toBeNull();
    expect(loadPostDraft(1, 'recent')).not.toBeNull();
    expect(localStorage.getItem(postDraftKey(1, 'broken'))).toBeNull();
    expect(localStorage.getItem('new')).not.toBeNull();
  });

  it('a full storage only costs the local copy', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const full = {
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    } as unknown as Storage;
    expect(() => savePostDraft(1, 'x', draft(1), full)).not.toThrow();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
