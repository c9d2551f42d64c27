import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeApi, injectConfig } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

const SEARCH = '/api/my/blogs/7/posts/search';
const posts = [
  samplePost(2, {
    title: 'Walking in the rain',
    body: { type: 'root', children: [{ type: 'heading', value: { text: 'Walking in the rain' } }] },
  }),
  samplePost(1, {
    title: 'Sunny days',
    body: { type: 'root', children: [{ type: 'heading', value: { text: 'Sunny days' } }] },
  }),
];

describe('search', () => {
  it('sends nothing for an empty query, then searches, keeps the query in the address and lists the results', async () => {
    const server = fakeApi(postsServer(posts).handlers);
    const { user, history } = renderRoute('/d/posts/search');
    const field = await screen.findByRole('searchbox', { name: 'query' });
    const search = screen.getByRole('button', { name: 'Search' });

    await user.click(search);
    await user.type(field, '   ');
    await user.click(search);
    expect(server.sent('POST', SEARCH)).toEqual([]);
    expect(history.location.search).toBe('');

    await user.clear(field);
    await user.type(field, 'rain{Enter}');
    expect(history.location.search).toBe('?query=rain');
    const results = await screen.findByRole('list', { name: 'Results' });
    expect(within(results).getAllByRole('article')).toHaveLength(1);
    expect(within(results).getByRole('link', { name: 'Walking in the rain' })).toHaveAttribute(
      'href',
      `/d/posts/${posts[0]!.shortId}/edit`,
    );
    expect(server.sent('POST', SEARCH).map((r) => r.body)).toEqual([{ query: 'rain' }]);

    await user.click(within(results).getByRole('link', { name: 'Walking in the rain' }));
    expect(history.location.pathname).toBe(`/d/posts/${posts[0]!.shortId}/edit`);
  });

  it('runs the search in the address (?query=, named after the field) on load', async () => {
    const server = fakeApi(postsServer(posts).handlers);
    const { history } = renderRoute('/d/posts/search?query=sunny');
    expect(await screen.findByRole('link', { name: 'Sunny days' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'query' })).toHaveValue('sunny');
    expect(server.sent('POST', SEARCH).map((r) => r.body)).toEqual([{ query: 'sunny' }]);
    expect(history.location.search).toBe('?query=sunny');
  });

  it('still opens links shared with the old ?q= and moves the query to ?query= in place', async () => {
    const server = fakeApi(postsServer(posts).handlers);
    const { history } = renderRoute('/d/posts/search?q=sunny');
    expect(await screen.findByRole('link', { name: 'Sunny days' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'query' })).toHaveValue('sunny');
    expect(history.location.search).toBe('?query=sunny');
    expect(history.action).toBe('REPLACE');
    expect(server.sent('POST', SEARCH).map((r) => r.body)).toEqual([{ query: 'sunny' }]);
  });

  it('says when nothing matches', async () => {
    fakeApi(postsServer(posts).handlers);
    renderRoute('/d/posts/search?query=snow');
    expect(await screen.findByText('No posts match “snow”.')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('list', { name: 'Results' })).toBeNull();
  });

  it('sends nothing for an empty ?query= on load', async () => {
    const server = fakeApi(postsServer(posts).handlers);
    renderRoute('/d/posts/search?query=%20%20');
    await screen.findByRole('searchbox', { name: 'query' });
    await waitFor(() => expect(server.sent('GET', '/api/my/blogs/7')).toHaveLength(1));
    expect(server.sent('POST', SEARCH)).toEqual([]);
  });
});
