import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { alice, errors, fakeApi, injectConfig, json, signedIn, type Handler } from '../../test/fake-api';
import { fakePopup, postFromCallback } from '../../test/fake-popup';
import { renderRoute } from '../../test/render-route';

const AUTHORIZATION_URL = 'https://accounts.example.com/authorize?response_type=id_token&nonce=n1';

beforeAll(() => {
  // Read once by the app, like the script the server puts into index.html.
  injectConfig({ host: 'localhost:8080', providerName: 'Google' });
});

/** A server where nobody is signed in until POST /api/sessions succeeds. */
function signInServer(overrides: Record<string, Handler> = {}) {
  let session: { user: typeof alice.user; blogId: number | null } | null = null;
  return fakeApi({
    'GET /api/session': () => json({ session: session ?? null }),
    'POST /api/auth/nonce': () => json({ nonce: 'n1', authorizationUrl: AUTHORIZATION_URL }),
    'POST /api/sessions': (request) => {
      const { signup } = request.body as { signup: boolean };
      session = { user: alice.user, blogId: signup ? null : alice.blog.id };
      return json({ session });
    },
    [`GET /api/my/blogs/${alice.blog.id}`]: () => json({ blog: alice.blog }),
    ...overrides,
  });
}

const loginButton = () => screen.getByRole('button', { name: 'Login with Google' });
const signupLink = () => screen.getByRole('button', { name: 'or Signup' });

describe('landing page', () => {
  it('says what Quire is and names the provider on the login button', async () => {
    signInServer();
    renderRoute('/');
    expect(screen.getByRole('img', { name: 'Quire' })).toBeInTheDocument();
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
    expect(loginButton()).toBeEnabled();
    expect(signupLink()).toBeEnabled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the instance's description and newest listed posts below the sign-in", async () => {
    signInServer({
      'GET /api/instance': () =>
        json({
          description: '<p>Blogs of the <em>harbour</em> club.</p>',
          posts: [
            {
              title: 'Low tide',
              url: 'http://bob.localhost:8080/low-tide-abcd2345',
              published_at: '2026-03-14T12:00:00.000Z',
              blog_name: 'Boats',
              blog_url: 'http://bob.localhost:8080/',
            },
          ],
        }),
    });
    renderRoute('/');
    expect(await screen.findByText('harbour')).toBeInTheDocument();
    const newest = screen.getByRole('region', { name: 'New on this instance' });
    expect(within(newest).getByRole('link', { name: 'Low tide' })).toHaveAttribute(
      'href',
      'http://bob.localhost:8080/low-tide-abcd2345',
    );
    // The SPEC's landing strings are still there, above.
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
    expect(loginButton()).toBeEnabled();
  });

  it('opens the signup notice from "or Signup" and closes it with Cancel', async () => {
    signInServer();
    const { user, history } = renderRoute('/');
    await user.click(signupLink());
    const dialog = screen.getByRole('dialog', { name: 'Signup' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Quire is a hobby project.',
      'Cookies are used to authenticate and identify users.',
      'If signup fails, change browser and try again.',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Signup with Google' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(history.location.pathname).toBe('/');
  });

  it('shows the signup notice straight away on /signup, and the landing page once it is closed', async () => {
    signInServer();
    const { user, history } = renderRoute('/signup');
    const dialog = screen.getByRole('dialog', { name: 'Signup' });
    expect(dialog).toHaveTextContent('Cookies are used to authenticate and identify users.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(history.location.pathname).toBe('/');
    expect(loginButton()).toBeInTheDocument();
  });

  it('logs in through the popup: buttons wait, then the owner area opens', async () => {
    const server = signInServer();
    const { popup, open } = fakePopup();
    const { user, history } = renderRoute('/');

    await user.click(loginButton());
    expect(open).toHaveBeenCalledWith('about:blank', 'quire-signin', 'popup,width=500,height=650');
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZATION_URL));
    expect(loginButton()).toBeDisabled();
    expect(loginButton()).toHaveAttribute('aria-busy', 'true');
    expect(signupLink()).toBeDisabled();

    // Only the app's own origin may hand over a token.
    act(() => postFromCallback({ idToken: 'forged' }, 'https://evil.example'));
    act(() => postFromCallback({ idToken: 'token-1' }));

    expect(await screen.findByRole('heading', { name: 'Posts' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts');
    expect(server.sent('POST', '/api/sessions').map((r) => r.body)).toEqual([{ id_token: 'token-1', signup: false }]);
    expect(popup.closed).toBe(true);
  });

  it('signs up from the modal with signup: true and lands on the blog-creation screen', async () => {
    const server = signInServer();
    const { popup } = fakePopup();
    const { user, history } = renderRoute('/');
    await user.click(signupLink());
    const dialog = screen.getByRole('dialog', { name: 'Signup' });
    const signup = within(dialog).getByRole('button', { name: 'Signup with Google' });

    await user.click(signup);
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZATION_URL));
    expect(signup).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();

    act(() => postFromCallback({ idToken: 'token-2' }));
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts');
    expect(server.sent('POST', '/api/sessions').map((r) => r.body)).toEqual([{ id_token: 'token-2', signup: true }]);
  });

  it('gives the buttons back when the user closes the popup without finishing', async () => {
    const server = signInServer();
    const { popup } = fakePopup();
    const { user } = renderRoute('/');
    await user.click(loginButton());
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZATION_URL));
    expect(loginButton()).toBeDisabled();

    popup.closed = true;
    await waitFor(() => expect(loginButton()).toBeEnabled());
    expect(signupLink()).toBeEnabled();
    expect(server.sent('POST', '/api/sessions')).toEqual([]);
  });

  it('says in words why a sign-in was refused, logs it, and lets the user try again', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = signInServer({
      'POST /api/sessions': () => errors(403, { signups: 'Signups are closed on this instance.' }),
    });
    fakePopup();
    const { user, history } = renderRoute('/');
    await user.click(loginButton());
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/auth/nonce', expect.anything()));
    await act(async () => postFromCallback({ idToken: 'token-3' }));

    await waitFor(() => expect(loginButton()).toBeEnabled());
    expect(error).toHaveBeenCalledWith(expect.stringContaining('status 403'), expect.anything());
    expect(screen.getByRole('alert')).toHaveTextContent('Signups are closed on this instance.');
    expect(history.location.pathname).toBe('/');

    // A new try clears the old message.
    fakePopup();
    await user.click(loginButton());
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(server.sent('POST', '/api/sessions')).toHaveLength(1);
  });

  it('says so when the browser blocks the popup', async () => {
    const server = signInServer();
    fakePopup({ blocked: true });
    const { user } = renderRoute('/');
    await user.click(loginButton());
    expect(screen.getByRole('alert')).toHaveTextContent('Your browser blocked the sign-in window.');
    expect(loginButton()).toBeEnabled();
    expect(server.sent('POST', '/api/auth/nonce')).toEqual([]);
  });

  it('sends a visitor who is already signed in on to the owner area', async () => {
    fakeApi(signedIn());
    const { history } = renderRoute('/');
    expect(await screen.findByRole('heading', { name: 'Posts' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts');
  });
});
