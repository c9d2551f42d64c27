import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, injectConfig } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));
beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('scrollTo', vi.fn());
});

const POSTS = '/api/my/blogs/7/posts';
const block = (n: number) => screen.getByRole('group', { name: new RegExp(`^Block ${n}: `) });

describe('save and keep writing', () => {
  it('saves a new post as a draft with Ctrl+S, stays in the editor at its edit address, and saves over it the next time', async () => {
    const server = fakeApi(postsServer().handlers);
    const { user, history } = renderRoute('/d/posts/new');
    await screen.findByRole('heading', { level: 1, name: 'New Post' });
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Morning');
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'First words.');
    await user.keyboard('{Control>}s{/Control}');

    expect(await screen.findByText(/^Saved at \d/)).toBeInTheDocument();
    // Saved as a draft: Ctrl+S never publishes; 'Publish' still does.
    expect(server.sent('POST', POSTS)).toHaveLength(1);
    expect(server.sent('POST', POSTS)[0]!.body).toMatchObject({ draft: true });
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveAttribute('type', 'submit');
    expect(history.location.pathname).toBe('/d/posts/new');
    expect(window.location.pathname).toBe('/d/posts/new00001/edit');
    // Still writing: the words and the focus stay where they were.
    const paragraph = within(block(2)).getByRole('textbox', { name: 'Paragraph' });
    expect(paragraph).toHaveValue('First words.');
    expect(paragraph).toHaveFocus();

    await user.type(paragraph, ' More.');
    await user.click(screen.getAllByRole('button', { name: 'Save and keep writing' })[0]!);
    await waitFor(() => expect(server.sent('PUT', `${POSTS}/new00001`)).toHaveLength(1));
    expect(server.sent('POST', POSTS)).toHaveLength(1);
    const sent = server.sent('PUT', `${POSTS}/new00001`)[0]!.body as { body: { children: unknown[] } };
    expect(sent.body.children[1]).toEqual({ type: 'paragraph', value: { text: 'First words. More.' } });
  });
});

describe('unpublish', () => {
  it('asks, makes the published post a draft and stays in the editor with Mark as draft ticked', async () => {
    const post = samplePost(1, { shortId: 'pub00001', title: 'Live one', version: 3 });
    const server = fakeApi(postsServer([post]).handlers);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = renderRoute('/d/posts/pub00001/edit');
    await user.click(await screen.findByRole('button', { name: 'More' }));
    expect(screen.queryByRole('checkbox', { name: 'Mark as draft' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Unpublish' }));
    expect(confirm).toHaveBeenCalledOnce();
    expect(server.sent('POST', `${POSTS}/pub00001/unpublish`)).toEqual([]);

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('button', { name: 'Unpublish' }));
    expect(await screen.findByRole('checkbox', { name: 'Mark as draft' })).toBeChecked();
    expect(server.sent('POST', `${POSTS}/pub00001/unpublish`)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.queryByRole('button', { name: 'Unpublish' })).toBeNull();
    // The next save is based on the unpublished version, and keeps it a draft.
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(server.sent('PUT', `${POSTS}/pub00001`)).toHaveLength(1));
    expect(server.sent('PUT', `${POSTS}/pub00001`)[0]!.body).toMatchObject({ draft: true, version: 4 });
  });
});

describe('blocks from the keyboard', () => {
  it('moves the focus to the next block after Remove, and Alt+Enter opens Add block after the current one', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fakeApi(postsServer().handlers);
    const { user } = renderRoute('/d/posts/new');
    await screen.findByRole('heading', { level: 1, name: 'New Post' });
    await user.click(screen.getByRole('button', { name: 'Edit blocks' }));
    await user.click(within(block(1)).getByRole('button', { name: 'Remove' }));
    expect(within(block(1)).getByRole('textbox', { name: 'Paragraph' })).toHaveFocus();

    await user.keyboard('{Alt>}{Enter}{/Alt}');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /heading/i }));
    expect(screen.getAllByRole('group', { name: /^Block \d+: / }).map((g) => g.getAttribute('aria-label'))).toEqual([
      'Block 1: Paragraph',
      'Block 2: Heading',
    ]);
    await waitFor(() => expect(within(block(2)).getByRole('textbox', { name: 'Heading' })).toHaveFocus());
  });
});
