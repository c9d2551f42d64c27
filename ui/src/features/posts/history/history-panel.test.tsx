import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Revision } from '../../../api-types/revisions';
import { alice, fakeApi, injectConfig, json, paged } from '../../../test/fake-api';
import { postsServer, samplePost } from '../../../test/fake-posts';
import { renderRoute } from '../../../test/render-route';
import type { Block } from '../api';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

const body = (title: string, text: string): { type: 'root'; children: Block[] } => ({
  type: 'root',
  children: [
    { type: 'heading', value: { text: title } },
    { type: 'paragraph', value: { text } },
  ],
});

function revision(id: number, title: string, text: string): Revision {
  return {
    id,
    createdAt: `2026-05-0${id}T10:00:00.000Z`,
    author: 'alice@example.com',
    kind: 'save',
    state: {
      status: 'published',
      publishedAt: '2026-05-01T09:00:00.000Z',
      scheduledAt: null,
      visibility: 'public',
      page: false,
    },
    title,
    slug: title.toLowerCase(),
    body: body(title, text),
    tags: [],
  };
}

describe('history panel', () => {
  it('lists the revisions, shows one against the current version with words marked, and restores it', async () => {
    const post = samplePost(1, { title: 'Third', body: body('Third', 'the slow brown fox') });
    const server = postsServer([post]);
    const base = `/api/my/blogs/${alice.blog.id}/posts/${post.shortId}/revisions`;
    const restored = {
      ...post,
      title: 'First',
      body: body('First', 'the quick brown fox'),
      updatedAt: '2026-06-01T00:00:00.000Z',
    };
    const api = fakeApi({
      ...server.handlers,
      [`GET ${base}`]: () =>
        paged(
          { revisions: [revision(2, 'Second', 'a quick fox'), revision(1, 'First', 'the quick brown fox')], total: 2 },
          1,
          20,
          2,
        ),
      [`POST ${base}/1/restore`]: () => json({ post: restored }),
      [`GET /api/my/blogs/${alice.blog.id}/posts/${post.shortId}/preview_link`]: () => json({ previewLink: null }),
    });
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const { user } = renderRoute(`/d/posts/${post.shortId}/edit`);

    await user.click(await screen.findByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'History' });
    const versions = await within(dialog).findByRole('list', { name: 'Earlier versions' });
    expect(
      within(versions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('Second'), expect.stringContaining('First')]);
    expect(within(versions).getAllByRole('button')[0]).toHaveTextContent('Saved by alice@example.com');

    await user.click(within(versions).getAllByRole('button')[1]!);
    const compared = within(dialog).getByRole('list', { name: 'Blocks compared' });
    expect([...compared.querySelectorAll('del')].map((d) => d.textContent?.trim())).toContain('quick');
    expect([...compared.querySelectorAll('ins')].map((d) => d.textContent?.trim())).toContain('slow');
    expect(within(dialog).getByText((_, el) => el?.className === 'q-diff__title')).toHaveTextContent(
      'Title: First Third',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Restore this version' }));
    expect(confirm).toHaveBeenCalledOnce();
    await waitFor(() => expect(api.sent('POST', `${base}/1/restore`)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'History' })).toBeNull());
    expect(await screen.findByDisplayValue('First')).toBeInTheDocument();
  });

  it('restores nothing when the confirmation is declined', async () => {
    const post = samplePost(1, { title: 'Now', body: body('Now', 'words') });
    const base = `/api/my/blogs/${alice.blog.id}/posts/${post.shortId}/revisions`;
    const api = fakeApi({
      ...postsServer([post]).handlers,
      [`GET ${base}`]: () => paged({ revisions: [revision(1, 'Then', 'old words')], total: 1 }, 1, 20, 1),
      [`GET /api/my/blogs/${alice.blog.id}/posts/${post.shortId}/preview_link`]: () => json({ previewLink: null }),
    });
    vi.stubGlobal(
      'confirm',
      vi.fn(() => false),
    );
    const { user } = renderRoute(`/d/posts/${post.shortId}/edit`);
    await user.click(await screen.findByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'History' });
    await user.click((await within(dialog).findAllByRole('button', { pressed: false }))[0]!);
    await user.click(within(dialog).getByRole('button', { name: 'Restore this version' }));
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('offers no History for a new post', async () => {
    fakeApi(postsServer([]).handlers);
    const { user } = renderRoute('/d/posts/new');
    await user.click(await screen.findByRole('button', { name: 'More' }));
    // The menu is open: its 'Save and keep writing' shows beside the toolbar's.
    expect(screen.getAllByRole('button', { name: 'Save and keep writing' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'History' })).toBeNull();
  });
});
