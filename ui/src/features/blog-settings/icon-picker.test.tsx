import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { alice, errors } from '../../test/fake-api';
import { emojiOf } from './favicon-image';
import { FakeIntersectionObserver } from '../../test/fake-intersection-observer';
import { faviconsOf, pagedJson, renderSettings, settingsServer } from '../../test/fake-settings';

const tabIcon = () => screen.getByRole('group', { name: 'Tab Icon' });
const faviconRequests = (server: ReturnType<typeof settingsServer>) =>
  server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/favicons')).map((r) => r.path);

beforeEach(() => {
  FakeIntersectionObserver.install();
});

describe('settings: tab icon', () => {
  it('shows the current icon as text beside a Change button', () => {
    settingsServer();
    renderSettings();
    expect(within(tabIcon()).getByRole('img', { name: '📝' })).toHaveTextContent('📝');
    expect(within(tabIcon()).getByRole('button', { name: 'Change' })).toBeInTheDocument();
  });

  it('loads page pageNumber + 1 each time the bottom of the grid comes into view, and stops at totalPages', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    await user.click(within(tabIcon()).getByRole('button', { name: 'Change' }));
    const dialog = screen.getByRole('dialog', { name: 'Choose a tab icon' });
    const icons = () => within(dialog).queryAllByRole('listitem');

    // The empty grid's bottom is in view at once: page 1.
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(icons()).toHaveLength(3));
    expect(faviconRequests(server)).toEqual(['/api/favicons?page=1&page_size=100']);

    // The user scrolls down: the bottom leaves the view, then comes back.
    FakeIntersectionObserver.showAll(false);
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(icons()).toHaveLength(6));
    expect(faviconRequests(server)).toEqual([
      '/api/favicons?page=1&page_size=100',
      '/api/favicons?page=2&page_size=100',
    ]);

    FakeIntersectionObserver.showAll(false);
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(icons()).toHaveLength(9));

    // Page 3 of 3 was the last one: scrolling to the bottom again asks for nothing.
    FakeIntersectionObserver.showAll(false);
    FakeIntersectionObserver.showAll(true);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(faviconRequests(server)).toEqual([
      '/api/favicons?page=1&page_size=100',
      '/api/favicons?page=2&page_size=100',
      '/api/favicons?page=3&page_size=100',
    ]);
    expect(within(dialog).getAllByRole('button', { name: emojiOf(faviconsOf(3)[2]!.code) })).toHaveLength(1);
  });

  it("follows the server's pageNumber header and keeps loading while the bottom stays in view", async () => {
    // The server answers page 5 of 6 to the first request: the next one must be page 6, the last.
    const server = settingsServer({
      'GET /api/favicons': (request) => {
        const page = Number(new URL(request.path, 'http://x').searchParams.get('page'));
        const answered = page === 1 ? 5 : page;
        return pagedJson({ favicons: faviconsOf(answered) }, answered, 6);
      },
    });
    const { user } = renderSettings();
    await user.click(within(tabIcon()).getByRole('button', { name: 'Change' }));
    // A tall screen: after each page the bottom is still in view, so the next one comes too.
    const dialog = screen.getByRole('dialog', { name: 'Choose a tab icon' });
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(3));
    FakeIntersectionObserver.showAll(true);
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(6));
    FakeIntersectionObserver.showAll(true);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(faviconRequests(server)).toEqual([
      '/api/favicons?page=1&page_size=100',
      '/api/favicons?page=6&page_size=100',
    ]);
  });

  it('saves the clicked icon, closes the picker and shows the new icon', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    await user.click(within(tabIcon()).getByRole('button', { name: 'Change' }));
    FakeIntersectionObserver.showAll(true);
    const chosen = faviconsOf(1)[1]!;
    await user.click(await screen.findByRole('button', { name: emojiOf(chosen.code) }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}/favicon`).map((r) => r.body)).toEqual([
      { favicon_id: chosen.id },
    ]);
    expect(within(tabIcon()).getByRole('img', { name: emojiOf(chosen.code) })).toBeInTheDocument();
    expect(within(tabIcon()).getByRole('button', { name: 'Saved' })).toBeInTheDocument();

    // Opened again, the picker keeps the pages it has and marks the new icon.
    await user.click(within(tabIcon()).getByRole('button', { name: 'Saved' }));
    const dialog = screen.getByRole('dialog', { name: 'Choose a tab icon' });
    expect(within(dialog).getByRole('button', { name: emojiOf(chosen.code) })).toHaveAttribute('aria-current', 'true');
    expect(faviconRequests(server)).toHaveLength(1);
  });

  it("keeps the picker open with the server's message when saving fails", async () => {
    settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}/favicon`]: () => errors(422, { faviconId: 'Unknown icon' }),
    });
    const { user } = renderSettings();
    await user.click(within(tabIcon()).getByRole('button', { name: 'Change' }));
    FakeIntersectionObserver.showAll(true);
    await user.click(await screen.findByRole('button', { name: emojiOf(faviconsOf(1)[0]!.code) }));

    const dialog = screen.getByRole('dialog', { name: 'Choose a tab icon' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Unknown icon');
    expect(within(tabIcon()).getByRole('img', { name: '📝' })).toBeInTheDocument();
  });

  it('offers Try again when a page does not load', async () => {
    let fail = true;
    const server = settingsServer({
      'GET /api/favicons': () =>
        fail ? errors(500, { server: 'Internal error' }) : pagedJson({ favicons: faviconsOf(1) }, 1, 1),
    });
    const { user } = renderSettings();
    await user.click(within(tabIcon()).getByRole('button', { name: 'Change' }));
    FakeIntersectionObserver.showAll(true);
    const dialog = screen.getByRole('dialog', { name: 'Choose a tab icon' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Internal error');
    expect(faviconRequests(server)).toHaveLength(1);

    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(3));
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
