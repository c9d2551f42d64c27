import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '../../lib/reload-page';
import { refreshBlog } from '../blogs';
import { alice, errors, fakeApi, injectConfig, json, signedIn } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';

vi.mock('../../lib/reload-page', () => ({ reloadPage: vi.fn() }));

beforeAll(() => {
  injectConfig({ host: 'localhost:8080', providerName: 'Local', supportUrl: 'https://ko-fi.com/quire' });
});

const menu = () => screen.getByRole('navigation', { name: 'Menu' });

describe('owner area', () => {
  it('sends a visitor without a session to the landing page', async () => {
    fakeApi({ 'GET /api/session': () => json({ session: null }) });
    const { history } = renderRoute('/d/settings');
    expect(await screen.findByText('is a free blogging platform')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
  });

  it("gives an admin's menu an Admin entry after Settings", async () => {
    fakeApi(signedIn({ isAdmin: true }));
    renderRoute('/d/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    const names = within(menu())
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(names.slice(0, 4)).toEqual([
      ['Posts', '/d/posts'],
      ['Responses', '/d/responses'],
      ['Settings', '/d/settings'],
      ['Admin', '/d/admin'],
    ]);
  });

  it('shows the menu entries, in order, with the current one highlighted', async () => {
    fakeApi(signedIn());
    renderRoute('/d/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    const links = within(menu()).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Posts', '/d/posts'],
      ['Responses', '/d/responses'],
      ['Settings', '/d/settings'],
      ['Open blog', 'http://alice.localhost:8080'],
      ['Support', 'https://ko-fi.com/quire'],
      ['Signout', '/signout'],
    ]);
    const current = links.filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Settings']);
    for (const name of ['Open blog', 'Support']) {
      const external = within(menu()).getByRole('link', { name });
      expect(external).toHaveAttribute('target', '_blank');
      expect(external.getAttribute('rel')).toContain('noopener');
    }
    // The settings screen shows the blog it belongs to.
    expect(within(screen.getByRole('main')).getByText('Alice writes')).toBeInTheDocument();
    // The title is set in an effect, which a busy machine may run after the text is shown.
    await waitFor(() => expect(document.title).toBe('Settings · Quire'));
  });

  it('moves the highlight when another entry is chosen', async () => {
    fakeApi(signedIn());
    const { user, history } = renderRoute('/d/posts');
    await user.click(
      await within(await screen.findByRole('navigation', { name: 'Menu' })).findByRole('link', { name: 'Settings' }),
    );
    expect(history.location.pathname).toBe('/d/settings');
    expect(within(menu()).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu()).getByRole('link', { name: 'Posts' })).not.toHaveAttribute('aria-current');
  });

  it("signs out on the menu's Signout click, without the question /signout asks, then shows the landing page", async () => {
    document.cookie = 'csrf_token=tok123; path=/';
    let session: typeof alice.user | null = alice.user;
    const server = fakeApi({
      ...signedIn(),
      'GET /api/session': () => json({ session: session && { user: session, blogId: alice.blog.id } }),
      'POST /d/signout': () => {
        session = null;
        return json({});
      },
    });
    const { user, history } = renderRoute('/d/settings');
    await user.click(
      await within(await screen.findByRole('navigation', { name: 'Menu' })).findByRole('link', { name: 'Signout' }),
    );
    expect(await screen.findByText('is a free blogging platform')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Sign out of Quire?' })).toBeNull();
    expect(server.sent('POST', '/d/signout').map((request) => request.headers.get('CSRF-Token'))).toEqual(['tok123']);
  });

  it('sends /d to the post list', async () => {
    fakeApi(signedIn());
    const { history } = renderRoute('/d');
    expect(await screen.findByRole('heading', { level: 1, name: 'Posts' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts');
  });

  it('shows the blog-creation screen on every /d/* path while the user has no blog, and reloads once created', async () => {
    const server = fakeApi({
      ...signedIn({ blogId: null }),
      'POST /api/my/blogs': () => json({ blog: alice.blog }, 201),
    });
    const { user } = renderRoute('/d/settings');
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
    expect(screen.getByText('.localhost:8080')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Preferred subdomain' }), 'alice');
    await user.click(screen.getByRole('button', { name: 'Signup' }));
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalledOnce());
    expect(server.sent('GET', `/api/my/blogs/${alice.blog.id}`)).toEqual([]);
  });

  it('tells a user without a blog which account is signed in and lets them sign out from the Welcome screen', async () => {
    let signedInUser: typeof alice.user | null = alice.user;
    const server = fakeApi({
      'GET /api/session': () => json({ session: signedInUser && { user: signedInUser, blogId: null } }),
      'POST /d/signout': () => {
        signedInUser = null;
        return json({});
      },
    });
    const { user, history } = renderRoute('/d/posts');
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.getByText('alice@example.com')).toBeInTheDocument();
    expect(screen.getByText(/Signed in as/)).toHaveTextContent('Signed in as alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Signout' }));
    expect(await screen.findByText('is a free blogging platform')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
    expect(server.sent('POST', '/d/signout')).toHaveLength(1);
    expect(server.sent('POST', '/api/my/blogs')).toEqual([]);
  });

  it('says what went wrong when the blog cannot be loaded, and tries again on request', async () => {
    let failures = 1;
    fakeApi({
      ...signedIn(),
      [`GET /api/my/blogs/${alice.blog.id}`]: () =>
        failures-- > 0 ? errors(500, { server: 'Something broke (request abc123)' }) : json({ blog: alice.blog }),
    });
    const { user } = renderRoute('/d/posts');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something broke (request abc123)');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Posts' })).toBeInTheDocument();
  });

  it('shows an unknown owner path inside the shell', async () => {
    fakeApi(signedIn());
    renderRoute('/d/nothing-here');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(menu()).toBeInTheDocument();
  });

  it('loads the blog alone again on refreshBlog(), and keeps showing the last one when that fails', async () => {
    let blog = alice.blog;
    let fail = false;
    const server = fakeApi({
      ...signedIn(),
      [`GET /api/my/blogs/${alice.blog.id}`]: () =>
        fail ? errors(500, { server: 'Something broke' }) : json({ blog }),
    });
    renderRoute('/d/posts');
    expect(
      await within(await screen.findByRole('navigation', { name: 'Menu' })).findByText('Alice writes'),
    ).toBeInTheDocument();

    blog = { ...alice.blog, name: 'Harbour Notes' };
    await act(() => refreshBlog());
    expect(within(menu()).getByText('Harbour Notes')).toBeInTheDocument();
    expect(server.sent('GET', '/api/session')).toHaveLength(1);
    expect(server.sent('GET', `/api/my/blogs/${alice.blog.id}`)).toHaveLength(2);

    fail = true;
    let failure: unknown;
    await act(() => refreshBlog().catch((error: unknown) => void (failure = error)));
    expect(failure).toMatchObject({ status: 500 });
    expect(within(menu()).getByText('Harbour Notes')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Posts' })).toBeInTheDocument();
  });
});
