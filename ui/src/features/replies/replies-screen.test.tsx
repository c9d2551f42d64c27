import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { alice, errors, fakeApi, injectConfig, json, paged, signedIn } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';
import type { Reply } from './api';
import { DELETE_REPLY_QUESTION, repliesQuery, stateFromParam } from './replies-screen';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

const path = `/api/my/blogs/${alice.blog.id}/replies`;
const HOSTILE = '<script>alert(1)</script> "quoted"\n\nSecond paragraph';

function aReply(id: number, overrides: Partial<Reply> = {}): Reply {
  return {
    id,
    postId: 'ab12cd34',
    postTitle: 'Hello fediverse',
    authorName: 'Bob',
    authorHandle: '@bob@peer.example',
    authorUrl: 'https://peer.example/@bob',
    url: `https://peer.example/@bob/${id}`,
    text: `Reply ${id}`,
    publishedAt: '2026-11-24T10:00:00.000Z',
    receivedAt: '2026-11-24T10:00:01.000Z',
    state: 'held',
    ...overrides,
  };
}

/** A fake quire with `held` and `approved` replies, paging, approving and deleting them as the server does. */
function repliesServer(held: Reply[], approved: Reply[] = []) {
  const state = { held, approved };
  return fakeApi({
    ...signedIn(),
    [`GET ${path}`]: (request) => {
      const query = new URL(request.path, 'http://x').searchParams;
      const all = query.get('state') === 'approved' ? state.approved : state.held;
      const page = Number(query.get('page') ?? '1');
      const size = Number(query.get('page_size') ?? '20');
      if (page > Math.max(1, Math.ceil(all.length / size))) return errors(400, { page: 'Should be from 1 to 1' });
      return paged({ replies: all.slice((page - 1) * size, page * size) }, page, size, all.length);
    },
    [`POST ${path}/1/approve`]: () => {
      const reply = { ...state.held.find((r) => r.id === 1)!, state: 'approved' as const };
      state.held = state.held.filter((r) => r.id !== 1);
      state.approved = [reply, ...state.approved];
      return json({ reply });
    },
    [`POST ${path}/2/approve`]: () => errors(404, { reply: 'Reply not found' }),
    [`DELETE ${path}/3`]: () => {
      state.approved = state.approved.filter((r) => r.id !== 3);
      return new Response(null, { status: 204 });
    },
  });
}

const list = (name: string) => screen.findByRole('list', { name });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('replies', () => {
  it('shows the held replies with their author, post, date and plain text, and the menu entry is current', async () => {
    repliesServer([aReply(1, { text: HOSTILE }), aReply(2)]);
    renderRoute('/d/replies');
    expect(await screen.findByRole('heading', { level: 1, name: 'Replies' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Menu' })).getByRole('link', { name: 'Replies' }),
    ).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('tab', { name: 'Held' })).toHaveAttribute('aria-selected', 'true');
    const held = await list('Held replies');
    const first = within(held).getAllByRole('article')[0]!;
    expect(within(first).getByRole('link', { name: 'Bob' })).toHaveAttribute('href', 'https://peer.example/@bob');
    expect(within(first).getByRole('link', { name: 'Bob' })).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
    expect(within(first).getByText('@bob@peer.example')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Hello fediverse' })).toHaveAttribute(
      'href',
      '/d/posts/ab12cd34/edit',
    );
    expect(first.querySelector('time')).toHaveAttribute('datetime', '2026-11-24T10:00:00.000Z');
    // The text is shown as text: no element is made of it, and its line breaks stay.
    const text = first.querySelector('.q-reply__text')!;
    expect(text.textContent).toBe(HOSTILE);
    expect(text.children).toHaveLength(0);
    expect(document.querySelector('.q-replies script')).toBeNull();
  });

  it('approves a held reply, which then shows under Approved', async () => {
    const server = repliesServer([aReply(1)]);
    const { user, history } = renderRoute('/d/replies');
    const held = await list('Held replies');
    await user.click(within(held).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('No replies are waiting for your approval.')).toBeInTheDocument();
    expect(server.sent('POST', `${path}/1/approve`)).toHaveLength(1);

    await user.click(screen.getByRole('tab', { name: 'Approved' }));
    expect(history.location.search).toBe('?state=approved');
    const approved = await list('Approved replies');
    expect(within(approved).getByText('Reply 1')).toBeInTheDocument();
    expect(within(approved).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('says why an approval failed and keeps the reply', async () => {
    repliesServer([aReply(2)]);
    const { user } = renderRoute('/d/replies');
    const held = await list('Held replies');
    await user.click(within(held).getByRole('button', { name: 'Approve' }));
    expect(await within(held).findByRole('alert')).toHaveTextContent('Reply not found');
    expect(within(held).getByText('Reply 2')).toBeInTheDocument();
  });

  it('deletes a reply only once the owner confirms', async () => {
    const server = repliesServer([], [aReply(3, { state: 'approved' })]);
    const { user } = renderRoute('/d/replies?state=approved');
    const approved = await list('Approved replies');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(approved).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith(DELETE_REPLY_QUESTION);
    expect(server.sent('DELETE', `${path}/3`)).toHaveLength(0);
    await user.click(within(approved).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByText('No approved replies yet.')).toBeInTheDocument());
    expect(server.sent('DELETE', `${path}/3`)).toHaveLength(1);
  });

  it('pages through the held replies twenty at a time, the page in ?p=', async () => {
    const many = Array.from({ length: 45 }, (_, i) => aReply(100 + i));
    const server = repliesServer(many);
    const { user, history } = renderRoute('/d/replies');
    const held = await list('Held replies');
    expect(within(held).getAllByRole('article')).toHaveLength(20);
    expect(server.sent('GET', `${path}?state=held&page=1&page_size=20`)).toHaveLength(1);
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('Page 1 of 3')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Last' }));
    expect(history.location.search).toBe('?p=3');
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Held replies' })).getAllByRole('article')).toHaveLength(5),
    );
    expect(screen.getByText('Reply 140')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Approved' }));
    expect(history.location.search).toBe('?state=approved');
  });

  it('goes back a page once the last reply of a later page is approved', async () => {
    repliesServer(Array.from({ length: 21 }, (_, i) => aReply(21 - i)));
    const { user, history } = renderRoute('/d/replies?p=2');
    const held = await list('Held replies');
    expect(within(held).getAllByRole('article')).toHaveLength(1);
    await user.click(within(held).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(history.location.search).toBe(''));
    expect(await screen.findByText('Reply 20')).toBeInTheDocument();
  });

  it('offers the first page when a page past the end is asked for', async () => {
    repliesServer([aReply(1)]);
    const { user, history } = renderRoute('/d/replies?p=7');
    expect(await screen.findByRole('alert')).toHaveTextContent('Should be from 1 to 1');
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(history.location.search).toBe('');
    expect(await list('Held replies')).toBeInTheDocument();
  });

  it('keeps the list and the page in the query', () => {
    expect(repliesQuery('held', 1)).toEqual({});
    expect(repliesQuery('approved', 1)).toEqual({ state: 'approved' });
    expect(repliesQuery('held', 3)).toEqual({ p: '3' });
  });

  it('reads ?state leniently: anything but approved is the held list', () => {
    expect(stateFromParam(null)).toBe('held');
    expect(stateFromParam('approved')).toBe('approved');
    expect(stateFromParam('sideways')).toBe('held');
  });
});
