import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { alice } from '../../test/fake-api';
import { renderRoutes } from '../../test/render-route';
import { OwnerShell } from './owner-shell';

/** A screen that counts how often it was mounted, like a page that loads its data on mount. */
function Screen({ name, mounts }: { name: string; mounts: Record<string, number> }) {
  const [count] = useState(() => {
    mounts[name] = (mounts[name] ?? 0) + 1;
    return mounts[name];
  });
  return (
    <h1>
      {name} (mount {count})
    </h1>
  );
}

function renderShell(path: string, supportUrl: string | null = null) {
  const mounts: Record<string, number> = {};
  const { history } = renderRoutes(
    [
      {
        path: '/d',
        element: <OwnerShell blog={alice.blog} supportUrl={supportUrl} />,
        children: [
          { path: '/d/posts', element: <Screen name="Posts" mounts={mounts} /> },
          { path: '/d/settings', element: <Screen name="Settings" mounts={mounts} /> },
        ],
      },
      { path: '/signout', element: <p>signing out</p> },
    ],
    path,
  );
  const user = userEvent.setup();
  const menu = screen.getByRole('navigation', { name: 'Menu' });
  const toggle = screen.getByRole('button', { name: 'Menu' });
  return { history, user, mounts, menu, toggle };
}

describe('owner shell', () => {
  it('has no Support entry without a support address', () => {
    const { menu } = renderShell('/d/posts');
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Posts', 'Responses', 'Settings', 'Open blog', 'Signout']);
  });

  it('reloads the current screen when its own entry is clicked', async () => {
    const { user, menu, mounts, history } = renderShell('/d/posts');
    expect(screen.getByRole('heading', { name: 'Posts (mount 1)' })).toBeInTheDocument();

    await user.click(within(menu).getByRole('link', { name: 'Posts' }));
    expect(screen.getByRole('heading', { name: 'Posts (mount 2)' })).toBeInTheDocument();
    await user.click(within(menu).getByRole('link', { name: 'Posts' }));
    expect(screen.getByRole('heading', { name: 'Posts (mount 3)' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts');
    expect(within(menu).getByRole('link', { name: 'Posts' })).toHaveAttribute('aria-current', 'page');

    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    expect(screen.getByRole('heading', { name: 'Settings (mount 1)' })).toBeInTheDocument();
    expect(mounts).toEqual({ Posts: 3, Settings: 1 });
  });

  it('slides the menu in from the hamburger button and closes it on Escape', async () => {
    const { user, menu, toggle } = renderShell('/d/posts');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', menu.id);

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(menu).getByRole('link', { name: 'Posts' })).toHaveFocus();
    // The screen behind cannot be reached while the menu is over it.
    expect(screen.getByRole('main', { hidden: true })).toHaveAttribute('inert');

    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });

  it('closes the menu when an entry is chosen or the backdrop is clicked', async () => {
    const { user, menu, toggle, history } = renderShell('/d/posts');
    await user.click(toggle);
    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    expect(history.location.pathname).toBe('/d/settings');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    const backdrop = document.querySelector('.q-owner__backdrop');
    if (!(backdrop instanceof HTMLElement)) throw new Error('no backdrop');
    expect(backdrop).toBeVisible();
    await user.click(backdrop);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(backdrop).not.toBeVisible();
  });
});
