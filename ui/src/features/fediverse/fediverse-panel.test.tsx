import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, errors, json, paged } from '../../test/fake-api';
import type { Fediverse, Follower } from './api';
import { removeFollowerQuestion, waitingText } from './fediverse-panel';
import { aFediverse, renderSettings, settingsServer } from '../../test/fake-settings';

const path = `/api/my/blogs/${alice.blog.id}/fediverse`;
const BAD_DOMAIN = 'Enter a domain name, not an IP address';

const bob: Follower = {
  id: 5,
  handle: '@bob@peer.example',
  actorUrl: 'https://peer.example/users/bob',
  state: 'accepted',
  since: '2026-11-24T08:00:00.000Z',
};
const carol: Follower = {
  id: 6,
  handle: '@carol@other.example',
  actorUrl: 'https://other.example/u/carol',
  state: 'pending',
  since: '2026-11-24T09:00:00.000Z',
};

/** A fake quire keeping the Fediverse settings and the followers (paged by 50) the way the server does. */
function fediverseServer(start: Fediverse, initialFollowers: Follower[] = []) {
  const state = { fediverse: start, followers: initialFollowers };
  const settings = (): Fediverse => ({
    ...state.fediverse,
    followerCount: state.followers.filter((f) => f.state === 'accepted').length,
    pendingCount: state.followers.filter((f) => f.state === 'pending').length,
  });
  const answer = (next: Partial<Fediverse> = {}) => {
    state.fediverse = { ...state.fediverse, ...next };
    return json({ fediverse: settings() });
  };
  const without = (id: number) => {
    state.followers = state.followers.filter((f) => f.id !== id);
    return answer();
  };
  const server = settingsServer({
    [`GET ${path}`]: () => answer(),
    [`GET ${path}/followers`]: (request) => {
      const page = Number(new URL(request.path, 'http://x').searchParams.get('page') ?? '1');
      const all = state.followers;
      if (page > Math.max(1, Math.ceil(all.length / 50))) return errors(400, { page: 'Should be from 1 to 1' });
      return paged({ followers: all.slice((page - 1) * 50, page * 50) }, page, 50, all.length);
    },
    [`PUT ${path}`]: (request) =>
      answer({ approveFollowers: (request.body as { approve_followers: boolean }).approve_followers }),
    [`POST ${path}/followers/6/approve`]: () => {
      state.followers = state.followers.map((f) => (f.id === 6 ? { ...f, state: 'accepted' as const } : f));
      return answer();
    },
    [`DELETE ${path}/followers/5`]: () => without(5),
    [`DELETE ${path}/followers/6`]: () => without(6),
    [`DELETE ${path}/followers/100`]: () => without(100),
    [`POST ${path}/blocked_domains`]: (request) => {
      const domain = (request.body as { domain: string }).domain;
      if (/^[\d.]+$/.test(domain)) return errors(422, { domain: BAD_DOMAIN });
      state.followers = state.followers.filter((f) => !f.handle.endsWith(`@${domain.trim().toLowerCase()}`));
      return answer({ blockedDomains: [...state.fediverse.blockedDomains, domain.toLowerCase()].sort() });
    },
    [`DELETE ${path}/blocked_domains/spam.example`]: () =>
      answer({ blockedDomains: state.fediverse.blockedDomains.filter((d) => d !== 'spam.example') }),
  });
  return { ...server, state };
}

/** Follower `n` of many, accepted, on `host`. */
const many = (n: number, host = 'many.example'): Follower => ({
  id: n,
  handle: `@f${n}@${host}`,
  actorUrl: `https://${host}/u/f${n}`,
  state: 'accepted',
  since: '2026-11-24T08:00:00.000Z',
});

const panel = () => screen.getByRole('region', { name: 'Fediverse' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('settings: fediverse', () => {
  it('shows the handle to share, with a Copy button', async () => {
    fediverseServer(aFediverse());
    const { user } = renderSettings();
    expect(await within(panel()).findByText('@alice@localhost:8080')).toBeInTheDocument();
    expect(within(panel()).getByText('No followers yet.')).toBeInTheDocument();
    await user.click(within(panel()).getByRole('button', { name: 'Copy the handle' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe('@alice@localhost:8080');
    expect(within(panel()).getByRole('button', { name: 'Copied the handle' })).toHaveTextContent('Copied');
  });

  it('lists the followers, approves or rejects a pending one and removes an accepted one once confirmed', async () => {
    const server = fediverseServer(aFediverse({ approveFollowers: true }), [bob, carol]);
    const { user } = renderSettings();
    const list = await within(panel()).findByRole('list', { name: 'Followers' });
    expect(within(panel()).getByText(`1 follower · ${waitingText(1)!}`)).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: '@bob@peer.example' })).toHaveAttribute('href', bob.actorUrl);
    expect(within(list).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Approve @bob@peer.example' })).toBeNull();

    await user.click(within(list).getByRole('button', { name: 'Approve @carol@other.example' }));
    expect(await within(panel()).findByText('2 followers')).toBeInTheDocument();
    expect(server.sent('POST', `${path}/followers/6/approve`)).toHaveLength(1);
    // The count comes with the settings, the list with its own page: wait for both.
    await waitFor(() =>
      expect(
        within(within(panel()).getByRole('list', { name: 'Followers' })).queryByText('Waiting for approval'),
      ).toBeNull(),
    );

    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(list).getByRole('button', { name: 'Remove @bob@peer.example' }));
    expect(confirm).toHaveBeenCalledWith(removeFollowerQuestion('@bob@peer.example'));
    expect(server.sent('DELETE', `${path}/followers/5`)).toHaveLength(0);
    await user.click(within(list).getByRole('button', { name: 'Remove @bob@peer.example' }));
    await waitFor(() => expect(within(panel()).getByText('1 follower')).toBeInTheDocument());
    await waitFor(() => expect(within(panel()).queryByText('@bob@peer.example')).toBeNull());
  });

  it('rejects a pending follower without asking', async () => {
    const server = fediverseServer(aFediverse({ approveFollowers: true }), [carol]);
    const { user } = renderSettings();
    const list = await within(panel()).findByRole('list', { name: 'Followers' });
    const confirm = vi.spyOn(window, 'confirm');
    await user.click(within(list).getByRole('button', { name: 'Reject @carol@other.example' }));
    await waitFor(() => expect(within(panel()).queryByRole('list', { name: 'Followers' })).toBeNull());
    expect(server.sent('DELETE', `${path}/followers/6`)).toHaveLength(1);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('saves the approval switch as soon as it is switched', async () => {
    const server = fediverseServer(aFediverse());
    const { user } = renderSettings();
    const box = await within(panel()).findByRole('checkbox', { name: 'Approve new followers' });
    expect(box).not.toBeChecked();
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(server.sent('PUT', path).map((r) => r.body)).toEqual([{ approve_followers: true }]);
  });

  it("blocks a domain, shows the server's message for a bad one, and unblocks", async () => {
    const server = fediverseServer(aFediverse({ blockedDomains: ['spam.example'] }));
    const { user } = renderSettings();
    const input = await within(panel()).findByRole('textbox', { name: 'Domain to block' });
    await user.type(input, '10.0.0.1');
    await user.click(within(panel()).getByRole('button', { name: 'Block' }));
    expect(await within(panel()).findByRole('alert')).toHaveTextContent(BAD_DOMAIN);
    expect(input).toHaveAccessibleDescription(BAD_DOMAIN);

    await user.clear(input);
    await user.type(input, ' Rude.Example ');
    await user.click(within(panel()).getByRole('button', { name: 'Block' }));
    const list = within(panel()).getByRole('list', { name: 'Blocked domains' });
    expect(await within(list).findByText('rude.example')).toBeInTheDocument();
    expect(server.sent('POST', `${path}/blocked_domains`).map((r) => r.body)).toEqual([
      { domain: '10.0.0.1' },
      { domain: 'Rude.Example' },
    ]);
    expect(input).toHaveValue('');

    await user.click(within(list).getByRole('button', { name: 'Unblock spam.example' }));
    await waitFor(() => expect(within(list).queryByText('spam.example')).toBeNull());
  });

  it('pages through the followers fifty at a time and says how many wait', async () => {
    const followers = [...Array.from({ length: 60 }, (_, i) => many(100 + i)), carol];
    const server = fediverseServer(aFediverse({ approveFollowers: true }), followers);
    const { user } = renderSettings();
    const list = await within(panel()).findByRole('list', { name: 'Followers' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(within(panel()).getByText(`60 followers · ${waitingText(1)!}`)).toBeInTheDocument();
    expect(server.sent('GET', `${path}/followers?page=1&page_size=50`)).toHaveLength(1);
    const pages = within(panel()).getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(panel()).findByRole('link', { name: '@carol@other.example' })).toBeInTheDocument();
    expect(within(within(panel()).getByRole('list', { name: 'Followers' })).getAllByRole('listitem')).toHaveLength(11);
  });

  it('goes back a page when a change leaves the page empty, and reloads the page after a block', async () => {
    const server = fediverseServer(
      aFediverse(),
      Array.from({ length: 51 }, (_, i) => many(50 + i)),
    );
    const { user } = renderSettings();
    await within(panel()).findByRole('list', { name: 'Followers' });
    const pages = within(panel()).getByRole('navigation', { name: 'Pages' });
    await user.click(within(pages).getByRole('button', { name: 'Last' }));
    expect(await within(panel()).findByRole('link', { name: '@f100@many.example' })).toBeInTheDocument();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click(within(panel()).getByRole('button', { name: 'Remove @f100@many.example' }));
    expect(await within(panel()).findByRole('link', { name: '@f50@many.example' })).toBeInTheDocument();
    expect(within(panel()).queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(server.sent('GET', `${path}/followers?page=1&page_size=50`).length).toBeGreaterThan(1);

    await user.type(within(panel()).getByRole('textbox', { name: 'Domain to block' }), 'many.example');
    await user.click(within(panel()).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(within(panel()).queryByRole('list', { name: 'Followers' })).toBeNull());
    expect(within(panel()).getByText('No followers yet.')).toBeInTheDocument();
  });

  it('says what the limits on remote servers refused', async () => {
    fediverseServer(
      aFediverse({
        refused: [
          { kind: 'pending_follower', count: 3, lastHost: 'b.example', lastAt: '2026-11-24T10:00:00.000Z' },
          { kind: 'reaction', count: 1, lastHost: 'a.example', lastAt: '2026-11-24T10:00:00.000Z' },
          { kind: 'reply', count: 12, lastHost: 'spam.example', lastAt: '2026-11-24T10:00:00.000Z' },
        ],
      }),
    );
    renderSettings();
    const list = await within(panel()).findByRole('list', { name: 'Refused by the limits' });
    expect(within(list).getByText('1 like or boost refused, the last from a.example')).toBeInTheDocument();
    expect(within(list).getByText('12 replies refused, the last from spam.example')).toBeInTheDocument();
    expect(
      within(list).getByText('3 followers waiting for approval refused, the last from b.example'),
    ).toBeInTheDocument();
  });

  it('sums up the deliveries given up, by server', async () => {
    fediverseServer(
      aFediverse({ givenUp: [{ inboxHost: 'dead.example', count: 2, lastError: 'connection refused' }] }),
    );
    renderSettings();
    const list = await within(panel()).findByRole('list', { name: 'Undelivered' });
    expect(within(list).getByText('2 deliveries to dead.example given up after two days')).toBeInTheDocument();
    expect(within(list).getByText('Last error: connection refused')).toBeInTheDocument();
  });
});
