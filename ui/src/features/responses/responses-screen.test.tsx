import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { alice, errors, fakeApi, injectConfig, json, paged, signedIn } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';
import type { Response as QueueEntry, ResponseState } from './api';
import { BLOCK_QUESTION, DELETE_RESPONSE_QUESTION } from './response-card';
import { deleteManyQuestion, responsesQuery, stateFromParam } from './responses-screen';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

const blogPath = `/api/my/blogs/${alice.blog.id}`;
const path = `${blogPath}/responses`;
const HOSTILE = '<script>alert(1)</script> "quoted"\n\nSecond paragraph';

function anEntry(id: number, kind: QueueEntry['kind'], overrides: Partial<QueueEntry> = {}): QueueEntry {
  return {
    id,
    kind,
    state: 'held',
    postId: 'ab12cd34',
    postTitle: 'Hello readers',
    authorName: kind === 'reply' ? 'Bob' : kind === 'comment' ? 'Ann' : 'Cy',
    authorHandle: kind === 'reply' ? '@bob@peer.example' : null,
    authorUrl: kind === 'comment' ? '' : 'https://peer.example/@bob',
    sourceUrl: kind === 'comment' ? null : `https://peer.example/${id}`,
    title: kind === 'webmention' ? 'On hello' : '',
    text: `Response ${id}`,
    ownerReply: '',
    receivedAt: '2026-11-24T10:00:01.000Z',
    ...overrides,
  };
}

/** A fake quire with the three lists, paging, acting on one and in bulk as the server does. */
function queueServer(held: QueueEntry[], approved: QueueEntry[] = [], spam: QueueEntry[] = []) {
  const lists: Record<ResponseState, QueueEntry[]> = { held, approved, spam };
  const move = (entry: QueueEntry, to: ResponseState) => {
    for (const key of Object.keys(lists) as ResponseState[]) lists[key] = lists[key].filter((e) => e !== entry);
    const moved = { ...entry, state: to };
    lists[to] = [moved, ...lists[to]];
    return moved;
  };
  const find = (kind: string, id: number) =>
    Object.values(lists)
      .flat()
      .find((e) => (kind === 'reply' ? e.kind === 'reply' : e.kind !== 'reply') && e.id === id);
  return fakeApi({
    ...signedIn(),
    [`GET ${path}`]: (request) => {
      const query = new URL(request.path, 'http://x').searchParams;
      const all = lists[(query.get('state') ?? 'held') as ResponseState];
      const page = Number(query.get('page') ?? '1');
      const size = Number(query.get('page_size') ?? '20');
      if (page > Math.max(1, Math.ceil(all.length / size))) return errors(400, { page: 'Should be from 1 to 1' });
      return paged({ responses: all.slice((page - 1) * size, page * size) }, page, size, all.length);
    },
    [`POST ${blogPath}/replies/1/approve`]: () => json({ reply: { ...move(find('reply', 1)!, 'approved') } }),
    [`POST ${path}/2/spam`]: () => json({ response: move(find('comment', 2)!, 'spam') }),
    [`POST ${path}/2/block`]: () => json({ response: move(find('comment', 2)!, 'spam') }),
    [`POST ${path}/3/approve`]: () => errors(404, { response: 'Response not found' }),
    [`PUT ${path}/2/reply`]: (request) => {
      const entry = find('comment', 2)!;
      const text = (request.body as { text: string }).text;
      Object.assign(entry, { ownerReply: text });
      return json({ response: entry });
    },
    [`DELETE ${blogPath}/replies/1`]: () => {
      lists.approved = lists.approved.filter((e) => !(e.kind === 'reply' && e.id === 1));
      return new Response(null, { status: 204 });
    },
    [`POST ${path}/bulk`]: (request) => {
      // The app sends its keys in snake_case, as the server reads them.
      const {
        ids,
        reply_ids: replyIds,
        action,
      } = request.body as { ids: number[]; reply_ids: number[]; action: string };
      const chosen = [...ids.map((id) => find('comment', id)), ...replyIds.map((id) => find('reply', id))];
      for (const entry of chosen) {
        if (!entry) continue;
        if (action === 'delete')
          for (const key of Object.keys(lists) as ResponseState[]) lists[key] = lists[key].filter((e) => e !== entry);
        else move(entry, action === 'approve' ? 'approved' : 'spam');
      }
      return json({ done: chosen.length });
    },
  });
}

const list = (name: string) => screen.findByRole('list', { name });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('responses', () => {
  it('shows each kind with its author, post, source and plain text, and the menu entry is current', async () => {
    queueServer([anEntry(1, 'reply', { text: HOSTILE }), anEntry(2, 'comment'), anEntry(3, 'webmention')]);
    renderRoute('/d/responses');
    expect(await screen.findByRole('heading', { level: 1, name: 'Responses' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Menu' })).getByRole('link', { name: 'Responses' }),
    ).toHaveAttribute('aria-current', 'page');
    const held = await list('Held responses');
    const reply = within(held).getByRole('article', { name: 'Fediverse reply by Bob' });
    expect(within(reply).getByRole('link', { name: 'Bob' })).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
    expect(within(reply).getByText('@bob@peer.example')).toBeInTheDocument();
    expect(within(reply).getByRole('link', { name: 'Hello readers' })).toHaveAttribute(
      'href',
      '/d/posts/ab12cd34/edit',
    );
    const text = reply.querySelector('.q-response__text')!;
    expect(text.textContent).toBe(HOSTILE);
    expect(text.children).toHaveLength(0);
    expect(document.querySelector('.q-responses script')).toBeNull();
    const comment = within(held).getByRole('article', { name: 'Comment by Ann' });
    expect(within(comment).queryByRole('link', { name: 'Ann' })).toBeNull();
    expect(within(comment).getByRole('button', { name: 'Block address' })).toBeInTheDocument();
    expect(within(comment).getByRole('button', { name: 'Reply' })).toBeInTheDocument();
    const mention = within(held).getByRole('article', { name: 'Webmention by Cy' });
    expect(within(mention).getByText('On hello')).toBeInTheDocument();
    expect(mention.querySelector('time')!.closest('a')).toHaveAttribute('href', 'https://peer.example/3');
    expect(within(mention).queryByRole('button', { name: 'Reply' })).toBeNull();
    expect(within(reply).queryByRole('button', { name: 'Block address' })).toBeNull();
  });

  it('approves a fediverse reply through the replies route and spams a comment through the responses one', async () => {
    const server = queueServer([anEntry(1, 'reply'), anEntry(2, 'comment')]);
    const { user, history } = renderRoute('/d/responses');
    const held = await list('Held responses');
    await user.click(
      within(within(held).getByRole('article', { name: 'Fediverse reply by Bob' })).getByRole('button', {
        name: 'Approve',
      }),
    );
    await waitFor(() => expect(within(held).queryByRole('article', { name: 'Fediverse reply by Bob' })).toBeNull());
    expect(server.sent('POST', `${blogPath}/replies/1/approve`)).toHaveLength(1);
    await user.click(within(held).getByRole('button', { name: 'Spam' }));
    expect(await screen.findByText('Nothing is waiting for your approval.')).toBeInTheDocument();
    expect(server.sent('POST', `${path}/2/spam`)).toHaveLength(1);
    await user.click(screen.getByRole('tab', { name: 'Spam' }));
    expect(history.location.search).toBe('?state=spam');
    const spam = await list('Spam responses');
    expect(within(spam).getByText('Response 2')).toBeInTheDocument();
    expect(within(spam).queryByRole('button', { name: 'Spam' })).toBeNull();
  });

  it('blocks an address and deletes only once the owner confirms', async () => {
    const server = queueServer([anEntry(2, 'comment')], [anEntry(1, 'reply', { state: 'approved' })]);
    const { user } = renderRoute('/d/responses');
    const held = await list('Held responses');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(held).getByRole('button', { name: 'Block address' }));
    expect(confirm).toHaveBeenCalledWith(BLOCK_QUESTION);
    expect(server.sent('POST', `${path}/2/block`)).toHaveLength(0);
    await user.click(within(held).getByRole('button', { name: 'Block address' }));
    expect(await screen.findByText('Nothing is waiting for your approval.')).toBeInTheDocument();
    expect(server.sent('POST', `${path}/2/block`)).toHaveLength(1);

    await user.click(screen.getByRole('tab', { name: 'Approved' }));
    const approved = await list('Approved responses');
    confirm.mockReturnValueOnce(true);
    await user.click(within(approved).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenLastCalledWith(DELETE_RESPONSE_QUESTION);
    expect(await screen.findByText('No approved responses yet.')).toBeInTheDocument();
    expect(server.sent('DELETE', `${blogPath}/replies/1`)).toHaveLength(1);
  });

  it('says why an action failed and keeps the response', async () => {
    queueServer([anEntry(3, 'webmention')]);
    const { user } = renderRoute('/d/responses');
    const held = await list('Held responses');
    await user.click(within(held).getByRole('button', { name: 'Approve' }));
    expect(await within(held).findByRole('alert')).toHaveTextContent('Response not found');
    expect(within(held).getByText('Response 3')).toBeInTheDocument();
  });

  it("writes the owner's reply under a comment", async () => {
    const server = queueServer([anEntry(2, 'comment')]);
    const { user } = renderRoute('/d/responses');
    const held = await list('Held responses');
    await user.click(within(held).getByRole('button', { name: 'Reply' }));
    await user.type(within(held).getByRole('textbox', { name: 'Your reply' }), 'Thanks, Ann');
    await user.click(within(held).getByRole('button', { name: 'Save reply' }));
    expect(await within(held).findByRole('button', { name: 'Edit reply' })).toBeInTheDocument();
    expect(within(held).getByText('Thanks, Ann')).toBeInTheDocument();
    expect(server.sent('PUT', `${path}/2/reply`)[0]!.body).toEqual({ text: 'Thanks, Ann' });
  });

  it('acts on the selected responses together, replies and comments in one call', async () => {
    const server = queueServer([anEntry(1, 'reply'), anEntry(2, 'comment'), anEntry(3, 'webmention')]);
    const { user } = renderRoute('/d/responses');
    const held = await list('Held responses');
    expect(screen.getByRole('button', { name: 'Approve selected' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await user.click(within(held).getByRole('checkbox', { name: 'Select the webmention by Cy' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve selected' }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Held responses' })).getAllByRole('article')).toHaveLength(1),
    );
    expect(server.sent('POST', `${path}/bulk`)[0]!.body).toEqual({ ids: [2], reply_ids: [1], action: 'approve' });

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(confirm).toHaveBeenCalledWith(deleteManyQuestion(1));
    expect(await screen.findByText('Nothing is waiting for your approval.')).toBeInTheDocument();
  });

  it('pages through the held responses twenty at a time, the page in ?p=', async () => {
    const server = queueServer(Array.from({ length: 45 }, (_, i) => anEntry(100 + i, 'comment')));
    const { user, history } = renderRoute('/d/responses');
    const held = await list('Held responses');
    expect(within(held).getAllByRole('article')).toHaveLength(20);
    expect(server.sent('GET', `${path}?state=held&page=1&page_size=20`)).toHaveLength(1);
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    await user.click(within(pages).getByRole('button', { name: 'Last' }));
    expect(history.location.search).toBe('?p=3');
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Held responses' })).getAllByRole('article')).toHaveLength(5),
    );
  });

  it('sends the old Replies address on to Responses, keeping the list', async () => {
    queueServer([], [anEntry(1, 'reply', { state: 'approved' })]);
    const { history } = renderRoute('/d/replies?state=approved');
    expect(await list('Approved responses')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/responses');
  });

  it('keeps the list and the page in the query, and reads ?state leniently', () => {
    expect(responsesQuery('held', 1)).toEqual({});
    expect(responsesQuery('spam', 1)).toEqual({ state: 'spam' });
    expect(responsesQuery('held', 3)).toEqual({ p: '3' });
    expect(stateFromParam('approved')).toBe('approved');
    expect(stateFromParam('spam')).toBe('spam');
    expect(stateFromParam('sideways')).toBe('held');
  });
});
