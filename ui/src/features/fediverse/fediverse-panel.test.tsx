import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import type { Fediverse, Follower } from './api';
import { removeFollowerQuestion } from './fediverse-panel';
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

/** A fake quire keeping the Fediverse settings the way the server does. */
function fediverseServer(start: Fediverse) {
  const state = { fediverse: start };
  const answer = (next: Fediverse) => {
    state.fediverse = next;
    return json({ fediverse: next });
  };
  const count = (followers: Follower[]) => followers.filter((f) => f.state === 'accepted').length;
  const without = (id: number) => {
    const followers = state.fediverse.followers.filter((f) => f.id !== id);
    return answer({ ...state.fediverse, followers, followerCount: count(followers) });
  };
  const server = settingsServer({
    [`GET ${path}`]: () => json({ fediverse: state.fediverse }),
    [`PUT ${path}`]: (request) =>
      answer({
        ...state.fediverse,
        approveFollowers: (request.body as { approve_followers: boolean }).approve_followers,
      }),
    [`POST ${path}/followers/6/approve`]: () => {
      const followers = state.fediverse.followers.map((f) => (f.id === 6 ? { ...f, state: 'accepted' as const } : f));
      return answer({ ...state.fediverse, followers, followerCount: count(followers) });
    },
    [`DELETE ${path}/followers/5`]: () => without(5),
    [`DELETE ${path}/followers/6`]: () => without(6),
    [`POST ${path}/blocked_domains`]: (request) => {
      const domain = (request.body as { domain: string }).domain;
      if (/^[\d.]+$/.test(domain)) return errors(422, { domain: BAD_DOMAIN });
      return answer({
        ...state.fediverse,
        blockedDomains: [...state.fediverse.blockedDomains, domain.toLowerCase()].sort(),
      });
    },
    [`DELETE ${path}/blocked_domains/spam.example`]: () =>
      answer({
        ...state.fediverse,
        blockedDomains: state.fediverse.blockedDomains.filter((d) => d !== 'spam.example'),
      }),
  });
  return { ...server, state };
}

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
    const server = fediverseServer(aFediverse({ approveFollowers: true, followerCount: 1, followers: [bob, carol] }));
    const { user } = renderSettings();
    const list = await within(panel()).findByRole('list', { name: 'Followers' });
    expect(within(panel()).getByText('1 follower')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: '@bob@peer.example' })).toHaveAttribute('href', bob.actorUrl);
    expect(within(list).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Approve @bob@peer.example' })).toBeNull();

    await user.click(within(list).getByRole('button', { name: 'Approve @carol@other.example' }));
    expect(await within(panel()).findByText('2 followers')).toBeInTheDocument();
    expect(server.sent('POST', `${path}/followers/6/approve`)).toHaveLength(1);
    expect(within(list).queryByText('Waiting for approval')).toBeNull();

    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(list).getByRole('button', { name: 'Remove @bob@peer.example' }));
    expect(confirm).toHaveBeenCalledWith(removeFollowerQuestion('@bob@peer.example'));
    expect(server.sent('DELETE', `${path}/followers/5`)).toHaveLength(0);
    await user.click(within(list).getByRole('button', { name: 'Remove @bob@peer.example' }));
    await waitFor(() => expect(within(panel()).getByText('1 follower')).toBeInTheDocument());
    expect(within(panel()).queryByText('@bob@peer.example')).toBeNull();
  });

  it('rejects a pending follower without asking', async () => {
    const server = fediverseServer(aFediverse({ approveFollowers: true, followers: [carol] }));
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
