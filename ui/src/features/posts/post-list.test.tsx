import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, injectConfig } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';
import { localClock } from '../../lib/local-time';
import { pageFromParam } from '../../lib/page-param';
import { formatPublished } from './post-card';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

let scrollTo: ReturnType<typeof vi.fn>;
beforeEach(() => {
  scrollTo = vi.fn();
  vi.stubGlobal('scrollTo', scrollTo);
});

/** 25 posts, newest (25) first. */
const manyPosts = () => Array.from({ length: 25 }, (_, i) => samplePost(25 - i));
const cards = () => within(screen.getByRole('list', { name: 'Posts' })).getAllByRole('article');
const titles = () => cards().map((card) => within(card).getByRole('heading').textContent);
const pager = () => screen.getByRole('navigation', { name: 'Pages' });
const pagerButton = (name: string) => within(pager()).getByRole('button', { name });

describe('post list', () => {
  it("offers 'Search' and 'New Post'", async () => {
    fakeApi(postsServer([samplePost(1)]).handlers);
    const { user, history } = renderRoute('/d/posts');
    expect(await screen.findByRole('link', { name: 'Search' })).toHaveAttribute('href', '/d/posts/search');
    expect(screen.getByRole('link', { name: 'New Post' })).toHaveAttribute('href', '/d/posts/new');
    await user.click(screen.getByRole('link', { name: 'New Post' }));
    expect(history.location.pathname).toBe('/d/posts/new');
  });

  it("shows each post's title, linking to its editor, with 'Draft' or its date, and 'Read' and 'Share' once published", async () => {
    const published = samplePost(2, { title: 'Out in the world', publishedAt: '2026-03-01T09:30:00Z' });
    const draft = samplePost(1, { title: 'Still thinking', publishedAt: null });
    fakeApi(postsServer([published, draft]).handlers);
    renderRoute('/d/posts');
    await screen.findByRole('list', { name: 'Posts' });
    const [first, second] = cards();

    expect(within(first!).getByRole('link', { name: 'Out in the world' })).toHaveAttribute(
      'href',
      `/d/posts/${published.shortId}/edit`,
    );
    const time = first!.querySelector('time');
    expect(time).toHaveAttribute('datetime', '2026-03-01T09:30:00Z');
    expect(time).toHaveTextContent(formatPublished('2026-03-01T09:30:00Z'));
    expect(time?.textContent).toMatch(/2026/);
    expect(within(first!).queryByText('Draft')).toBeNull();
    const read = within(first!).getByRole('link', { name: 'Read' });
    expect(read).toHaveAttribute('href', published.permalink);
    expect(read).toHaveAttribute('target', '_blank');
    expect(within(first!).getByRole('button', { name: 'Share' })).toBeInTheDocument();

    expect(within(second!).getByRole('link', { name: 'Still thinking' })).toHaveAttribute(
      'href',
      `/d/posts/${draft.shortId}/edit`,
    );
    expect(within(second!).getByText('Draft')).toBeInTheDocument();
    expect(within(second!).queryByRole('link', { name: 'Read' })).toBeNull();
    expect(within(second!).queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it('shows the likes, boosts and replies from the fediverse that are not zero, with their words for screen readers', async () => {
    const liked = samplePost(2, {
      title: 'Liked',
      publishedAt: '2026-03-01T09:30:00Z',
      likes: 3,
      boosts: 0,
      replies: 1,
    });
    const quiet = samplePost(1, {
      title: 'Quiet',
      publishedAt: '2026-03-01T09:30:00Z',
      likes: 0,
      boosts: 0,
      replies: 0,
    });
    fakeApi(postsServer([liked, quiet]).handlers);
    const { user, history } = renderRoute('/d/posts');
    await screen.findByRole('list', { name: 'Posts' });
    const [first, second] = cards();
    const counts = within(first!).getByRole('list', { name: 'Responses to Liked' });
    expect(within(counts).getByRole('img', { name: '3 likes' })).toHaveTextContent('♥ 3');
    expect(within(counts).queryByRole('img', { name: /boost/ })).toBeNull();
    expect(within(second!).queryByRole('list', { name: /Responses to/ })).toBeNull();
    await user.click(within(counts).getByRole('link', { name: '1 reply' }));
    expect(history.location.pathname).toBe('/d/responses');
  });

  it("shows each mailed post's email: when it goes out, then how many it went to, waiting and failed", async () => {
    const dueAt = '2026-03-01T09:40:00Z';
    const waiting = samplePost(4, { title: 'Waiting', mail: { dueAt, sent: 0, waiting: 0, failed: 0 } });
    const sending = samplePost(3, { title: 'Sending', mail: { dueAt: null, sent: 118, waiting: 2, failed: 1 } });
    const sent = samplePost(2, { title: 'Sent', mail: { dueAt: null, sent: 40, waiting: 0, failed: 0 } });
    const never = samplePost(1, { title: 'Never', mail: null });
    fakeApi(postsServer([waiting, sending, sent, never, samplePost(0, { title: 'Without' })]).handlers);
    renderRoute('/d/posts');
    await screen.findByRole('list', { name: 'Posts' });
    const [first, second, third, fourth, fifth] = cards();
    expect(within(first!).getByText(`Email goes out at ${localClock(dueAt)}`)).toBeInTheDocument();
    expect(localClock(dueAt)).not.toMatch(/2026/);
    expect(within(second!).getByText('Emailed to 118 · 2 waiting · 1 failed')).toBeInTheDocument();
    expect(within(third!).getByText('Emailed to 40')).toBeInTheDocument();
    expect(within(fourth!).queryByText(/Email/)).toBeNull();
    expect(within(fifth!).queryByText(/Email/)).toBeNull();
  });

  it('shares through the device when it can, otherwise opens the post intent in a new window', async () => {
    const post = samplePost(1);
    fakeApi(postsServer([post]).handlers);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { user } = renderRoute('/d/posts');
    const share = await screen.findByRole('button', { name: 'Share' });

    await user.click(share);
    expect(open).toHaveBeenCalledWith(
      `https://x.com/intent/post?url=${encodeURIComponent(post.permalink)}`,
      '_blank',
      'noopener,noreferrer',
    );

    const deviceShare = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'share', { value: deviceShare, configurable: true });
    try {
      await user.click(share);
      expect(deviceShare).toHaveBeenCalledWith({ title: post.title, url: post.permalink });
      expect(open).toHaveBeenCalledTimes(1);
    } finally {
      delete (navigator as { share?: unknown }).share;
    }
  });

  it('pages with first, previous, next and last; page 1 has no ?p; each move scrolls to the top', async () => {
    const server = fakeApi(postsServer(manyPosts()).handlers);
    const { user, history } = renderRoute('/d/posts');
    await screen.findByRole('list', { name: 'Posts' });
    expect(titles()).toHaveLength(10);
    expect(titles()[0]).toBe('Post number 25');
    expect(within(pager()).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(pagerButton('First')).toBeDisabled();
    expect(pagerButton('Previous')).toBeDisabled();
    expect(pagerButton('Next')).toBeEnabled();
    expect(pagerButton('Last')).toBeEnabled();

    scrollTo.mockClear();
    await user.click(pagerButton('Next'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(history.location.pathname + history.location.search).toBe('/d/posts?p=2');
    await waitFor(() => expect(titles()[0]).toBe('Post number 15'));

    scrollTo.mockClear();
    await user.click(pagerButton('Last'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(history.location.search).toBe('?p=3');
    await waitFor(() =>
      expect(titles()).toEqual(['Post number 5', 'Post number 4', 'Post number 3', 'Post number 2', 'Post number 1']),
    );
    expect(pagerButton('Next')).toBeDisabled();
    expect(pagerButton('Last')).toBeDisabled();

    scrollTo.mockClear();
    await user.click(pagerButton('Previous'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(history.location.search).toBe('?p=2');
    await waitFor(() => expect(titles()[0]).toBe('Post number 15'));

    scrollTo.mockClear();
    await user.click(pagerButton('First'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(history.location.pathname).toBe('/d/posts');
    expect(history.location.search).toBe('');
    await waitFor(() => expect(titles()[0]).toBe('Post number 25'));

    expect(
      server.requests
        .filter((r) => r.method === 'GET' && r.path.startsWith('/api/my/blogs/7/posts'))
        .map((r) => r.path),
    ).toEqual([
      '/api/my/blogs/7/posts?page=1&page_size=10',
      '/api/my/blogs/7/posts?page=2&page_size=10',
      '/api/my/blogs/7/posts?page=3&page_size=10',
      '/api/my/blogs/7/posts?page=2&page_size=10',
      '/api/my/blogs/7/posts?page=1&page_size=10',
    ]);
  });

  it('opens the page in ?p= and drops ?p=1 from the address', async () => {
    fakeApi(postsServer(manyPosts()).handlers);
    const third = renderRoute('/d/posts?p=3');
    await waitFor(() => expect(titles()).toHaveLength(5));
    third.unmount();

    const { history } = renderRoute('/d/posts?p=1');
    await waitFor(() => expect(history.location.search).toBe(''));
    await waitFor(() => expect(titles()).toHaveLength(10));
  });

  it('reads ?p leniently: anything but a whole number from 1 is page 1', () => {
    expect(pageFromParam(null)).toBe(1);
    expect(pageFromParam('2')).toBe(2);
    expect(pageFromParam('0')).toBe(1);
    expect(pageFromParam('-3')).toBe(1);
    expect(pageFromParam('two')).toBe(1);
    expect(pageFromParam('1.5')).toBe(1);
  });

  it('shows no pager for a single page', async () => {
    fakeApi(postsServer(Array.from({ length: 10 }, (_, i) => samplePost(i + 1))).handlers);
    renderRoute('/d/posts');
    await screen.findByRole('list', { name: 'Posts' });
    expect(titles()).toHaveLength(10);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('welcomes a new blog without posts', async () => {
    fakeApi(postsServer([]).handlers);
    renderRoute('/d/posts');
    expect(await screen.findByText('No posts yet')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Posts' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('says what went wrong for a page past the end, with the way back', async () => {
    fakeApi(postsServer([samplePost(1)]).handlers);
    const { user, history } = renderRoute('/d/posts?p=4');
    expect(await screen.findByRole('alert')).toHaveTextContent('Should be from 1 to 1');
    await user.click(screen.getByRole('link', { name: 'First page' }));
    expect(history.location.search).toBe('');
    expect(await screen.findByRole('list', { name: 'Posts' })).toBeInTheDocument();
  });
});
