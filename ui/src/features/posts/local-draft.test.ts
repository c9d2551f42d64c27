import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalDraft, loadLocalDraft, LOCAL_DRAFT_KEY, parseLocalDraft, saveLocalDraft } from './local-draft';

const content = {
  blocks: [
    { type: 'heading' as const, value: { text: 'Hello' } },
    { type: 'link' as const, value: { url: 'https://example.com', title: 'Example' } },
  ],
  draft: true,
};

beforeEach(() => localStorage.clear());

describe('the local draft of a new post', () => {
  it("is kept under the key 'new' as {blocks, draft} and read back", () => {
    saveLocalDraft(content);
    expect(JSON.parse(localStorage.getItem('new') ?? 'null')).toEqual(content);
    expect(LOCAL_DRAFT_KEY).toBe('new');
    expect(loadLocalDraft()).toEqual(content);
  });

  it('is null when nothing is stored', () => {
    expect(loadLocalDraft()).toBeNull();
  });

  it('is deleted when its shape is wrong', () => {
    const malformed = [
      'not json at all',
      'null',
      '[]',
      '{"blocks": "heading", "draft": false}',
      '{"blocks": []}',
      '{"blocks": [], "draft": "yes"}',
      '{"blocks": [{"type": "video", "value": {"url": "https://x"}}], "draft": false}',
      '{"blocks": [{"type": "heading", "value": {"text": 3}}], "draft": false}',
      '{"blocks": [{"type": "link", "value": {"url": "https://x"}}], "draft": false}',
      '{"blocks": [{"type": "heading"}], "draft": false}',
    ];
    for (const raw of malformed) {
      localStorage.setItem('new', raw);
      expect(loadLocalDraft(), raw).toBeNull();
      expect(localStorage.getItem('new'), raw).toBeNull();
    }
  });

  it('keeps only the known fields of each block', () => {
    expect(
      parseLocalDraft({
        blocks: [{ type: 'image', value: { url: 'http://localhost:8080/media/a.png', extra: 1 }, key: 'b1' }],
        draft: false,
      }),
    ).toEqual({
      blocks: [{ type: 'image', value: { url: 'http://localhost:8080/media/a.png', alt: '', caption: '' } }],
      draft: false,
    });
  });

  it('is gone once cleared', () => {
    saveLocalDraft(content);
    clearLocalDraft();
    expect(localStorage.getItem('new')).toBeNull();
    expect(loadLocalDraft()).toBeNull();
  });
});
