import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../test/fake-api';
import { renderRoute } from '../test/render-route';

describe('routes', () => {
  it('shows the logo and what Quire is on the landing page', () => {
    renderRoute('/');
    expect(screen.getByRole('img', { name: 'Quire' })).toBeInTheDocument();
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login with Local' })).toBeInTheDocument();
  });

  it('shows the landing page with the signup notice on /signup', () => {
    renderRoute('/signup');
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Signup' })).toBeInTheDocument();
  });

  it('shows a not-found page with a link home for unknown paths', async () => {
    const { user, history } = renderRoute('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(document.title).toBe('Page not found · Quire');
    await user.click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(history.location.pathname).toBe('/');
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
  });

  it('claims the owner area, the popup callback and sign-out', () => {
    fakeApi({ 'POST /d/signout': () => json({}), 'GET /api/session': () => json({ session: null }) });
    for (const path of ['/d/posts', '/d/anything/else', '/auth/callback', '/signout']) {
      const { unmount } = renderRoute(path);
      expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
      unmount();
    }
  });
});
