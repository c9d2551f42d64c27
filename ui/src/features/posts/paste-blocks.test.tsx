// Pasting Markdown into a paragraph: the offer to split it into the server's blocks, keyboard
// operable, the text around the paste kept, the focus in the first new block; a one-line paste
// just pastes, and "Keep as one paragraph" leaves the paste as it is.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, injectConfig, json } from '../../test/fake-api';
import { postsServer } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';
import { pastedContent } from './paste-blocks';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));
beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('scrollTo', vi.fn());
});

const CONVERT = '/api/my/blogs/7/convert';
const PASTED = '## Morning\n\nFirst.\n\n- a\n- b';
const block = (n: number) => screen.getByRole('group', { name: new RegExp(`^Block ${n}: `) });
const blockNames = () =>
  screen.getAllByRole('group', { name: /^Block \d+: / }).map((g) => g.getAttribute('aria-label'));

const converted = {
  blocks: [
    { type: 'heading', value: { text: 'Morning' } },
    { type: 'paragraph', value: { text: 'First.\n\n- a\n- b' } },
  ],
  notes: [],
};

async function openNew() {
  const rendered = renderRoute('/d/posts/new');
  await screen.findByRole('heading', { level: 1, name: 'New Post' });
  return rendered;
}

describe('pasting Markdown into a paragraph', () => {
  it('offers to split it into the blocks the server makes, keeping the text around it', async () => {
    const server = fakeApi({ ...postsServer().handlers, [`POST ${CONVERT}`]: () => json(converted) });
    const { user } = await openNew();
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Notes');
    const paragraph = within(block(2)).getByRole('textbox', { name: 'Paragraph' });
    await user.type(paragraph, 'Before: ');
    await user.paste(PASTED);
    expect(paragraph).toHaveValue(`Before: ${PASTED}`); // the paste happened as usual

    const offer = await within(block(2)).findByRole('group', { name: 'Pasted text' });
    expect(within(offer).getByRole('status')).toHaveTextContent('The pasted text holds 2 blocks.');
    expect(server.sent('POST', CONVERT).map((r) => r.body)).toEqual([{ markdown: PASTED }]);
    // Keyboard: from the paragraph, Tab reaches the split button.
    await user.tab();
    expect(within(offer).getByRole('button', { name: 'Split into 2 blocks' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph', 'Block 3: Heading', 'Block 4: Paragraph']);
    expect(within(block(2)).getByRole('textbox', { name: 'Paragraph' })).toHaveValue('Before:');
    const heading = within(block(3)).getByRole('textbox', { name: 'Heading' });
    expect(heading).toHaveValue('Morning');
    await waitFor(() => expect(heading).toHaveFocus());
    expect(within(block(4)).getByRole('textbox', { name: 'Paragraph' })).toHaveValue('First.\n\n- a\n- b');
    expect(screen.queryByRole('group', { name: 'Pasted text' })).toBeNull();
  });

  it('keeps the paste as one paragraph on request (or Escape), and a one-line paste asks nothing', async () => {
    const server = fakeApi({ ...postsServer().handlers, [`POST ${CONVERT}`]: () => json(converted) });
    const { user } = await openNew();
    const paragraph = within(block(2)).getByRole('textbox', { name: 'Paragraph' });
    await user.click(paragraph);
    await user.paste('Just one line.');
    expect(paragraph).toHaveValue('Just one line.');
    expect(server.sent('POST', CONVERT)).toEqual([]);

    await user.paste(`\n${PASTED}`);
    const offer = await screen.findByRole('group', { name: 'Pasted text' });
    await user.click(within(offer).getByRole('button', { name: 'Keep as one paragraph' }));
    expect(screen.queryByRole('group', { name: 'Pasted text' })).toBeNull();
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph']);
    expect(paragraph).toHaveValue(`Just one line.\n${PASTED}`);
    expect(paragraph).toHaveFocus();

    await user.paste(`\n${PASTED}`);
    await screen.findByRole('group', { name: 'Pasted text' });
    await user.tab();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Pasted text' })).toBeNull();
    expect(blockNames()).toHaveLength(2);
  });
});

describe('what a paste sends', () => {
  it("sends the clipboard's HTML when it holds blocks, its text when that has several lines, else nothing", () => {
    expect(pastedContent('Morning', '<h2>Morning</h2><p>First.</p>')).toEqual({
      html: '<h2>Morning</h2><p>First.</p>',
    });
    expect(pastedContent('a\nb', '<span>a</span><br><span>b</span>')).toEqual({ markdown: 'a\nb' });
    expect(pastedContent('one line', '')).toBeNull();
    expect(pastedContent('  one line\n', '')).toBeNull();
  });
});
