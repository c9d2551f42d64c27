import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrashEntry } from '../../../api-types/trash';
import { alice, fakeApi, injectConfig, json, paged } from '../../../test/fake-api';
import { postsServer, samplePost } from '../../../test/fake-posts';
import { renderRoute } from '../../../test/render-route';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

const entry = (id: number, title: string): TrashEntry => ({
  id,
  title,
  deletedAt: '2026-05-01T10:00:00.000Z',
  expiresAt: '2026-05-31T10:00:00.000Z',
  published: true,
  page: false,
  revisions: 2,
});

function trashServer(entries: TrashEntry[]) {
  const trash = [...entries];
  const base = `/api/my/blogs/${alice.blog.id}/trash`;
  const handlers = {
    [`GET ${base}`]: () => paged({ trash, total: trash.length }, 1, 100, trash.length),
    ...Object.fromEntries(
      entries.flatMap((e) => [
        [
          `POST ${base}/${e.id}/restore`,
          () => {
            trash.splice(trash.indexOf(e), 1);
            return json({ post: samplePost(e.id, { title: e.title }) });
          },
        ],
        [
          `DELETE ${base}/${e.id}`,
          () => {
            trash.splice(trash.indexOf(e), 1);
            return json({});
          },
        ],
      ]),
    ),
  };
  return { handlers, trash };
}

describe('trash', () => {
  it('is linked from the post list with its count', async () => {
    const { handlers } = trashServer([entry(1, 'Gone'), entry(2, 'Also gone')]);
    fakeApi({ ...postsServer([samplePost(3)]).handlers, ...handlers });
    const { user, history } = renderRoute('/d/posts');
    await user.click(await screen.findByRole('link', { name: 'Trash (2)' }));
    expect(history.location.pathname).toBe('/d/posts/trash');
  });

  it('lists deleted posts with when they go for good, restores one and deletes one forever after asking', async () => {
    const server = trashServer([entry(1, 'Gone'), entry(2, 'Also gone')]);
    const api = fakeApi({ ...postsServer([]).handlers, ...server.handlers });
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const { user } = renderRoute('/d/posts/trash');
    const list = await screen.findByRole('list', { name: 'Deleted posts' });
    const [gone, also] = within(list).getAllByRole('listitem');
    expect(gone).toHaveTextContent('Gone');
    expect(gone!.querySelectorAll('time')[1]).toHaveAttribute('datetime', '2026-05-31T10:00:00.000Z');
    expect(gone).toHaveTextContent('removed for good');

    await user.click(within(gone!).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByRole('status')).toHaveTextContent('"Gone" is back among your posts.');
    expect(screen.getByRole('link', { name: 'Open it' })).toHaveAttribute(
      'href',
      `/d/posts/${samplePost(1).shortId}/edit`,
    );
    expect(confirm).not.toHaveBeenCalled();

    await user.click(within(also!).getByRole('button', { name: 'Delete forever' }));
    expect(confirm).toHaveBeenCalledOnce();
    await waitFor(() => expect(api.sent('DELETE', `/api/my/blogs/${alice.blog.id}/trash/2`)).toHaveLength(1));
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
  });

  it('deletes nothing when "Delete forever" is not confirmed', async () => {
    const server = trashServer([entry(1, 'Gone')]);
    const api = fakeApi({ ...postsServer([]).handlers, ...server.handlers });
    vi.stubGlobal(
      'confirm',
      vi.fn(() => false),
    );
    const { user } = renderRoute('/d/posts/trash');
    await user.click(await screen.findByRole('button', { name: 'Delete forever' }));
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByRole('list', { name: 'Deleted posts' })).toHaveTextContent('Gone');
  });
});
