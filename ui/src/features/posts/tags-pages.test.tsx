import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errors, fakeApi, injectConfig } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));

const POSTS = '/api/my/blogs/7/posts';
beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('scrollTo', vi.fn());
});

const tagsInput = () => screen.getByRole('combobox', { name: 'Tags' });
const chips = () =>
  within(screen.queryByRole('list', { name: 'Tags of this post' }) ?? document.createElement('ul'))
    .queryAllByRole('listitem')
    .map((li) => li.firstChild?.textContent);

async function openNew() {
  const rendered = renderRoute('/d/posts/new');
  await screen.findByRole('heading', { level: 1, name: 'New Post' });
  return rendered;
}

describe('the tag field', () => {
  it('adds typed tags on Enter or a comma, lowercased, and removes them', async () => {
    const server = fakeApi(postsServer().handlers);
    const { user, history } = await openNew();
    await user.type(tagsInput(), 'Rust{Enter}road-trip,');
    expect(chips()).toEqual(['rust', 'road-trip']);
    await user.type(tagsInput(), 'rust{Enter}');
    expect(chips()).toEqual(['rust', 'road-trip']);
    await user.click(screen.getByRole('button', { name: 'Remove tag rust' }));
    expect(chips()).toEqual(['road-trip']);

    const heading = screen.getByRole('textbox', { name: 'Heading' });
    await user.type(heading, 'Tagged');
    await user.type(screen.getByRole('textbox', { name: 'Paragraph' }), 'Text');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('POST', POSTS).map((r) => (r.body as { tags: string[] }).tags)).toEqual([['road-trip']]);
  }, 20_000);

  it("refuses a tag with the server's message before sending anything", async () => {
    fakeApi(postsServer().handlers);
    const { user } = await openNew();
    await user.type(tagsInput(), 'road trip{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'road trip: Should have no spaces: join words with hyphens, as in road-trip',
    );
    expect(tagsInput()).toHaveAttribute('aria-invalid', 'true');
    await user.clear(tagsInput());
    await user.type(tagsInput(), 'jаva{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Should use only the letters a to z, digits and hyphens');
    expect(chips()).toEqual([]);
    await user.clear(tagsInput());
    await user.click(tagsInput());
    await user.paste(Array.from({ length: 10 }, (_, n) => `t${n}`).join(','));
    await user.keyboard('{Enter}');
    expect(chips()).toHaveLength(10);
    expect(tagsInput()).toBeDisabled();
  }, 20_000);

  it("suggests the blog's tags once the field is used", async () => {
    fakeApi(postsServer([samplePost(1, { tags: ['travel', 'rust'] }), samplePost(2, { tags: ['rust'] })]).handlers);
    const { user } = await openNew();
    const list = document.getElementById(tagsInput().getAttribute('list') ?? '');
    expect(list?.querySelectorAll('option')).toHaveLength(0);
    await user.click(tagsInput());
    await waitFor(() =>
      expect([...(list?.querySelectorAll('option') ?? [])].map((o) => o.getAttribute('value'))).toEqual([
        'rust',
        'travel',
      ]),
    );
    await user.type(tagsInput(), 'rust{Enter}');
    await waitFor(() =>
      expect([...(list?.querySelectorAll('option') ?? [])].map((o) => o.getAttribute('value'))).toEqual(['travel']),
    );
  });

  it("shows the server's message about the tags by the field", async () => {
    fakeApi({
      ...postsServer().handlers,
      [`POST ${POSTS}`]: () => errors(422, { 'tags.0': 'Should be at most 40 characters' }),
    });
    const { user } = await openNew();
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'Title');
    await user.type(screen.getByRole('textbox', { name: 'Paragraph' }), 'Text');
    await user.type(tagsInput(), 'fine{Enter}');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Should be at most 40 characters')).toHaveAttribute('role', 'alert');
  }, 20_000);
});

describe('the page flag', () => {
  it("sends page: true, and refuses a title taking one of the blog's own addresses", async () => {
    const server = fakeApi(postsServer().handlers);
    const { user, history } = await openNew();
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'Search');
    await user.type(screen.getByRole('textbox', { name: 'Paragraph' }), 'Text');
    await user.click(screen.getByRole('checkbox', { name: 'Show as a page' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(
      await screen.findByText('The address /search belongs to the blog itself: give the page another title'),
    ).toBeInTheDocument();
    expect(server.sent('POST', POSTS)).toEqual([]);

    await user.clear(screen.getByRole('textbox', { name: 'Heading' }));
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'About');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('POST', POSTS).map((r) => (r.body as { page: boolean }).page)).toEqual([true]);
  }, 20_000);

  it('orders the pages with up and down buttons', async () => {
    const about = samplePost(3, { title: 'About', page: true });
    const now = samplePost(2, { title: 'Now', page: true });
    const server = fakeApi(postsServer([about, now, samplePost(1)]).handlers);
    const { user } = renderRoute('/d/posts');
    const list = await screen.findByRole('list', { name: 'Pages' });
    const order = () =>
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.split(' ')[0]);
    expect(order()).toEqual(['About', 'Now']);
    expect(screen.getByRole('button', { name: 'Move About up' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move Now up' }));
    await waitFor(() => expect(order()).toEqual(['Now', 'About']));
    expect(server.sent('PUT', '/api/my/blogs/7/pages').map((r) => r.body)).toEqual([
      { pages: [now.shortId, about.shortId] },
    ]);
  });
});

describe('the tag filter of the post list', () => {
  it('lists only the posts with the chosen tag, in ?tag=', async () => {
    fakeApi(
      postsServer([samplePost(2, { title: 'Rusty', tags: ['rust'] }), samplePost(1, { title: 'Plain' })]).handlers,
    );
    const { user, history } = renderRoute('/d/posts');
    const filter = await screen.findByRole('combobox', { name: 'Filter by tag' });
    await user.selectOptions(filter, 'rust');
    await waitFor(() => expect(history.location.search).toBe('?tag=rust'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Plain' })).toBeNull());
    const rusty = screen.getByRole('link', { name: 'Rusty' });
    expect(rusty).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Tags of Rusty' })).getByRole('link', { name: 'rust' }),
    ).toHaveAttribute('href', '/d/posts?tag=rust');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by tag' }), '');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Plain' })).toBeInTheDocument());
  });
});
