import { Fragment, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Logo } from '../../components';
import type { Blog } from '../blogs';
import { OwnerMenu, reloadCount } from './owner-menu';
import './owner.css';

const MENU_ID = 'q-owner-menu';
/** Where the menu stops sliding in and stays put (matches owner.css). */
const WIDE = '(min-width: 48rem)';

/**
 * The owner area's frame: the side menu (fixed on wide screens, a slide-in behind a hamburger
 * button on phones) beside the current screen.
 */
export function OwnerShell({ blog, supportUrl }: { blog: Blog; supportUrl: string | null }) {
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLElement>(null);

  // Any navigation closes the slide-in menu.
  useEffect(() => setMenuOpen(false), [location.key]);

  useEffect(() => {
    if (!menuOpen) return;
    menuRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    // Grown past phone width while open: the menu is fixed now, nothing to close.
    const wide = typeof window.matchMedia === 'function' ? window.matchMedia(WIDE) : null;
    const onWide = () => {
      if (wide?.matches) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    wide?.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      wide?.removeEventListener('change', onWide);
    };
  }, [menuOpen]);

  return (
    <div className="q-owner">
      <header className="q-owner__bar">
        <button
          ref={toggleRef}
          type="button"
          className="q-owner__toggle"
          aria-expanded={menuOpen}
          aria-controls={MENU_ID}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="q-owner__toggle-icon" aria-hidden="true" />
          <span className="q-visually-hidden">Menu</span>
        </button>
        <Logo className="q-owner__bar-logo" />
      </header>
      <OwnerMenu
        id={MENU_ID}
        ref={menuRef}
        blog={blog}
        supportUrl={supportUrl}
        open={menuOpen}
        onChoose={() => setMenuOpen(false)}
        onClose={() => {
          setMenuOpen(false);
          toggleRef.current?.focus();
        }}
      />
      <div className="q-owner__backdrop" hidden={!menuOpen} onClick={() => setMenuOpen(false)} />
      <main className="q-owner__main" inert={menuOpen || undefined}>
        {/* A new reload count mounts the screen afresh, so it loads its data again. */}
        <Fragment key={reloadCount(location.state)}>
          <Outlet />
        </Fragment>
      </main>
    </div>
  );
}
