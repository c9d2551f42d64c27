import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test/render-route';

describe('routes', () => {
  it('shows the logo and what Quire is on the landing page', () => {
    renderRoute('/');
    expect(screen.getByRole('img', { name: 'Quire' })).toBeInTheDocument();
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the same landing page on /signup for now', () => {
    renderRoute('/signup');
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
  });

  it('shows a not-found page with a link home for unknown paths', async () => {
    const { user, router } = renderRoute('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(document.title).toBe('Page not found · Quire');
    await user.click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('is a free blogging platform')).toBeInTheDocument();
  });

  it('does not claim the owner area yet', () => {
    renderRoute('/d/posts');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
