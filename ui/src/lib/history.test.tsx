import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, UNSAFE_createMemoryHistory } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RootLayout } from '../app/root-layout';
import { renderRoutes } from '../test/render-route';
import { guardHistory, type LeaveCheck } from './history';
import { lazyScreen } from './lazy-screen';

const memory = (entries: string[], scrollY = () => 0) =>
  guardHistory(
    UNSAFE_createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1, v5Compat: true }),
    scrollY,
  );

describe('guardHistory', () => {
  it('never makes a push or replace the check refuses, and asks it with where the user is and would go', () => {
    const history = memory(['/d/posts/new']);
    const seen: string[] = [];
    history.listen(({ location }) => seen.push(location.pathname));
    const check = vi.fn<LeaveCheck>((_, next) => next.pathname !== '/d/settings');
    history.block(check);

    history.push('/d/settings');
    history.replace({ pathname: '/d/settings', search: '?tab=1' });
    expect(history.location.pathname).toBe('/d/posts/new');
    expect(check).toHaveBeenCalledWith(
      expect.objectContaining({ pathname: '/d/posts/new' }),
      expect.objectContaining({ pathname: '/d/settings', search: '?tab=1' }),
    );

    history.push('/d/posts?page=2');
    expect(history.location.pathname).toBe('/d/posts');
    expect(seen).toEqual(['/d/posts']);
  });

  it('undoes a back move the check refuses, unseen by the app, and lets it through once the check is gone', () => {
    const history = memory(['/d/posts', '/d/posts/new']);
    const seen: string[] = [];
    history.listen(({ action, location }) => seen.push(`${action} ${location.pathname}`));
    const release = history.block(() => false);

    history.go(-1);
    expect(history.location.pathname).toBe('/d/posts/new');
    expect(seen).toEqual([]);

    release();
    history.go(-1);
    expect(history.location.pathname).toBe('/d/posts');
    expect(seen).toEqual(['POP /d/posts']);
  });

  it('a check removed after another took its place leaves the newer one in force', () => {
    const history = memory(['/']);
    const releaseFirst = history.block(() => true);
    history.block(() => false);
    releaseFirst();
    history.push('/elsewhere');
    expect(history.location.pathname).toBe('/');
  });

  it('keeps the scroll position each entry had when the user left it', () => {
    let y = 0;
    const history = memory(['/'], () => y);
    history.listen(() => undefined);
    const first = history.location.key;
    y = 640;
    history.push('/d/posts');
    const second = history.location.key;
    y = 80;
    history.go(-1);
    expect(history.scrollPositions.get(first)).toBe(640);
    expect(history.scrollPositions.get(second)).toBe(80);
  });
});

describe('the app shell on the app history', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('starts a new screen at the top and brings back the position on back', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    const { history } = renderRoutes(
      [
        {
          element: <RootLayout />,
          children: [
            { path: '/', element: <Link to="/next">next</Link> },
            { path: '/next', element: <p>next screen</p> },
          ],
        },
      ],
      '/',
    );
    // The user scrolled the first screen down before following the link.
    history.scrollPositions.clear();
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 500 });
    await userEvent.click(screen.getByRole('link', { name: 'next' }));
    expect(screen.getByText('next screen')).toBeInTheDocument();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
    act(() => history.go(-1));
    expect(screen.getByRole('link', { name: 'next' })).toBeInTheDocument();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 500);
  });

  it('after a reload, brings back the position the page had when it was left', () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    // What the page saved on `pagehide` before the reload, by the entry's key (a memory history's first is 'default').
    sessionStorage.setItem('quire-scroll-positions', JSON.stringify({ default: 700 }));
    renderRoutes([{ element: <RootLayout />, children: [{ path: '/', element: <p>the list</p> }] }], '/');
    expect(screen.getByText('the list')).toBeInTheDocument();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 700);
  });

  it('shows the error screen for a screen whose code failed to load, and clears it when the user goes elsewhere', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let attempts = 0;
    const Missing = lazyScreen(async () => {
      attempts += 1;
      throw new Error('Failed to fetch dynamically imported module');
    });
    // The load settles outside React; an awaited `act` lets React render what follows, as the browser does.
    const { history } = await act(async () =>
      renderRoutes(
        [
          {
            element: <RootLayout />,
            children: [
              { path: '/missing', element: <Missing /> },
              { path: '/', element: <Link to="/missing">again</Link> },
            ],
          },
        ],
        '/missing',
      ),
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeInTheDocument();
    expect(document.title).toBe('Something went wrong · Quire');
    expect(attempts).toBe(1);

    act(() => history.push('/'));
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
    expect(screen.getByRole('link', { name: 'again' })).toBeInTheDocument();
  });
});
