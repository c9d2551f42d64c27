// The picker with the server's own emoji images (the config is read once per file): images in the
// preview and the grid, the search, and the blog's icon marked.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alice, injectConfig } from '../../test/fake-api';
import { emojiOf } from './favicon-image';
import { FakeIntersectionObserver } from '../../test/fake-intersection-observer';
import { faviconsOf, pagedJson, renderSettings, settingsServer } from '../../test/fake-settings';

const IMAGES = '/emoji/16.0.1/';
const tabIcon = () => screen.getByRole('group', { name: 'Tab Icon' });
const faviconRequests = (server: ReturnType<typeof settingsServer>) =>
  server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/favicons')).map((r) => r.path);

/** Two cats on two pages for "cat", nothing for anything else but the empty query. */
const cats = [
  { id: 90, code: '1f431' },
  { id: 91, code: '1f408' },
];
function catServer() {
  return settingsServer({
    'GET /api/favicons': (request) => {
      const params = new URL(request.path, 'http://x').searchParams;
      const page = Number(params.get('page') ?? '1');
      const query = params.get('query');
      if (query === null) return pagedJson({ favicons: faviconsOf(page) }, page, 3);
      if (query === 'cat') return pagedJson({ favicons: [cats[page - 1]] }, page, 2, 1);
      return pagedJson({ favicons: [] }, 1, 0);
    },
  });
}

beforeAll(() => injectConfig({ host: 'localhost:8080', emojiImages: IMAGES }));
afterAll(() => document.getElementById('quire-config')?.remove());
beforeEach(() => {
  FakeIntersectionObserver.install();
});

async function openPicker(user: ReturnType<typeof renderSettings>['user']) {
  await user.click(within(tabIcon()).getByRole('button', { name: 'Change' }));
  FakeIntersectionObserver.showAll(true);
  return screen.getByRole('dialog', { name: 'Choose a tab icon' });
}

describe('icon picker with the embedded emoji images', () => {
  it('draws the preview and every icon of the grid from the image set, not as text', async () => {
    settingsServer();
    const { user } = renderSettings();
    const preview = within(tabIcon()).getByRole('img', { name: '📝' });
    expect(preview.tagName).toBe('IMG');
    expect(preview).toHaveAttribute('src', `${IMAGES}1f4dd.svg`);

    const dialog = await openPicker(user);
    const first = faviconsOf(1)[0]!;
    const button = await within(dialog).findByRole('button', { name: emojiOf(first.code) });
    expect(button.querySelector('img')).toHaveAttribute('src', `${IMAGES}${first.code}.svg`);
    // Twemoji's licence asks for a credit where its graphics show.
    expect(within(dialog).getByRole('link', { name: 'CC-BY 4.0' })).toHaveAttribute(
      'href',
      'https://creativecommons.org/licenses/by/4.0/',
    );
    expect(within(dialog).getByText(/Emoji graphics:/)).toHaveTextContent(
      'Twemoji, © Twitter, Inc and other contributors',
    );
    // The images are those of Discord's maintained Twemoji, so the credit links there.
    expect(within(dialog).getByRole('link', { name: 'Twemoji' })).toHaveAttribute(
      'href',
      'https://github.com/discord/twemoji',
    );
  });

  it('draws an emoji as text when its image does not load (newer than the set)', () => {
    settingsServer();
    renderSettings();
    const image = within(tabIcon()).getByRole('img', { name: '📝' });
    expect(image.tagName).toBe('IMG');
    fireEvent.error(image);
    const text = within(tabIcon()).getByRole('img', { name: '📝' });
    expect(text.tagName).toBe('SPAN');
    expect(text).toHaveTextContent('📝');
  });

  it('marks the blog’s current icon: shown above the grid, and its button is the current one', async () => {
    const blog = { ...alice.blog, favicon: faviconsOf(1)[1]! };
    settingsServer({}, blog);
    const { user } = renderSettings({ blog });
    const dialog = await openPicker(user);
    const name = emojiOf(blog.favicon.code);
    const current = await within(dialog).findByRole('button', { name });
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(current).toHaveAccessibleDescription('Current icon');
    const other = within(dialog).getByRole('button', { name: emojiOf(faviconsOf(1)[0]!.code) });
    expect(other).not.toHaveAttribute('aria-current');
    expect(other).not.toHaveAccessibleDescription();
    expect(within(dialog).getByText('Current icon').parentElement).toContainElement(
      within(dialog).getAllByRole('img', { name })[0]!,
    );
  });

  it('searches the icons by name and keyword and pages the results as the grid scrolls', async () => {
    const server = catServer();
    const { user } = renderSettings();
    const dialog = await openPicker(user);
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(3));

    await user.type(within(dialog).getByRole('searchbox', { name: 'Search icons' }), 'cat');
    const results = await within(dialog).findByRole('list', { name: 'Icons matching cat' });
    await waitFor(() => expect(within(results).getAllByRole('listitem')).toHaveLength(1));
    expect(within(results).getByRole('button', { name: '🐱' })).toBeInTheDocument();

    FakeIntersectionObserver.showAll(false);
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(within(results).getAllByRole('listitem')).toHaveLength(2));
    expect(within(results).getByRole('button', { name: '🐈' })).toBeInTheDocument();
    expect(faviconRequests(server)).toEqual([
      '/api/favicons?page=1&page_size=100',
      '/api/favicons?page=1&page_size=100&query=cat',
      '/api/favicons?page=2&page_size=100&query=cat',
    ]);

    // Cleared, the search gives the whole list again from its first page.
    await user.clear(within(dialog).getByRole('searchbox', { name: 'Search icons' }));
    await waitFor(() => expect(within(dialog).getByRole('list', { name: 'Icons' })).toBeInTheDocument());
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(within(dialog).getByRole('list', { name: 'Icons' }).children).toHaveLength(3));
  });

  it('says so when nothing matches', async () => {
    catServer();
    const { user } = renderSettings();
    const dialog = await openPicker(user);
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search icons' }), 'heron');
    expect(await within(dialog).findByRole('status')).toHaveTextContent('No icons match “heron”.');
    expect(within(dialog).queryAllByRole('listitem')).toHaveLength(0);
  });
});
