import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { errors, fakeApi, injectConfig, json, signedIn } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';

/** Gives the screen's effects time to send whatever they would send on their own. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeAll(() => {
  injectConfig({ host: 'localhost:8080', providerName: 'Local' });
});

describe('/signout', () => {
  it('only asks: opening it (a link from any site can) does not sign out', async () => {
    const server = fakeApi({
      'POST /d/signout': () => json({}),
      'GET /api/session': () => json({ session: null }),
    });
    const { history } = renderRoute('/signout');
    await settle();
    expect(server.sent('POST', '/d/signout')).toEqual([]);
    expect(history.location.pathname).toBe('/signout');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign out of Quire?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Signout' })).toBeEnabled();
    expect(document.title).toBe('Sign out · Quire');
  });

  it("signs out with the CSRF token on 'Signout', then shows the landing page", async () => {
    document.cookie = 'csrf_token=tok123; path=/';
    const server = fakeApi({
      'POST /d/signout': () => json({}),
      'GET /api/session': () => json({ session: null }),
    });
    const { history, user } = renderRoute('/signout');
    await user.click(await screen.findByRole('button', { name: 'Signout' }));
    expect(await screen.findByText('is a free blogging platform')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
    const [request] = server.sent('POST', '/d/signout');
    expect(request?.headers.get('CSRF-Token')).toBe('tok123');
    expect(server.sent('POST', '/d/signout')).toHaveLength(1);
  });

  it('only logs a failed sign-out and still leaves', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeApi({
      'POST /d/signout': () => errors(500, { server: 'Internal error' }),
      'GET /api/session': () => json({ session: null }),
    });
    const { history, user } = renderRoute('/signout');
    await user.click(await screen.findByRole('button', { name: 'Signout' }));
    expect(await screen.findByText('is a free blogging platform')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
    expect(error).toHaveBeenCalledWith('quire: sign-out failed', expect.anything());
  });

  it("goes back to the owner area on 'Cancel', still signed in", async () => {
    const server = fakeApi({ ...signedIn(), 'POST /d/signout': () => json({}) });
    const { history, user } = renderRoute('/signout');
    await user.click(await screen.findByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Posts' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts');
    expect(server.sent('POST', '/d/signout')).toEqual([]);
  });
});
