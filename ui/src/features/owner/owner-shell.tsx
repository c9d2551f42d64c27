import { Suspense, useEffect, useRef, useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { Outlet, useLocation } from 'react-router';
import { Logo, Spinner } from '../../components';
import { cx } from '../../lib/cx';
import type { Blog } from '../blogs';
import { BlogStateNotice } from './blog-state-notice';
import { OwnerMenu, reloadCount } from './owner-menu';
import './owner.css';

const MENU_ID = 'q-owner-menu';
/** Where the menu stops sliding in and stays put (matches owner.css). */
const WIDE = '(min-width: 48rem)';

/** The id of the screen's main area, the skip link's target. */
const MAIN_ID = 'q-main';

/**
 * The skip link: past the menu to the screen. A screen may name where writing starts
 * (`data-skip-target`, the editor's first field); else the main area takes the focus.
 */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  event.preventDefault();
  const target = main.querySelector<HTMLElement>('[data-skip-target]') ?? main;
  target.focus();
  target.scrollIntoView?.({ block: 'nearest' });
}

/**
 * The owner area's frame: the side menu (fixed on wide screens, a slide-in behind a hamburger
 * button on phones) beside the current screen, under the line saying what the blog's trust state
 * means when it is not approved. A skip link, the first Tab stop, leads past the menu.
 */
export function OwnerShell({
  blog,
  supportUrl,
  isAdmin = false,
}: {
  blog: Blog;
  supportUrl: string | null;
  /** The menu has Admin. */
  isAdmin?: boolean;
}) {
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // The menu slides in and out only when the owner opens or closes it: see `q-owner--sliding`.
  const [sliding, setSliding] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLElement>(null);

  const showMenu = (open: boolean) => {
    setSliding(true);
    setMenuOpen(open);
  };

  // Any navigation closes the slide-in menu.
  useEffect(() => setMenuOpen(false), [location.key]);

  // Across the phone/desktop width, the menu goes where the new width puts it without sliding (the
  // class goes before the browser styles the new width, hence flushSync); grown wide, it is fixed
  // and nothing is left to close.
  useEffect(() => {
    const wide = typeof window.matchMedia === 'function' ? window.matchMedia(WIDE) : null;
    if (!wide) return;
    const onChange = () =>
      flushSync(() => {
        setSliding(false);
        if (wide.matches) setMenuOpen(false);
      });
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    menuRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <div className={cx('q-owner', sliding && 'q-owner--sliding')}>
      <a className="q-skip-link" href={`#${MAIN_ID}`} onClick={skipToContent}>
        Skip to content
      </a>
      <header className="q-owner__bar">
        <button
          ref={toggleRef}
          type="button"
          className="q-owner__toggle"
          aria-expanded={menuOpen}
          aria-controls={MENU_ID}
          onClick={() => showMenu(!menuOpen)}
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
        isAdmin={isAdmin}
        open={menuOpen}
        onChoose={() => setMenuOpen(false)}
        onClose={() => {
          setMenuOpen(false);
          toggleRef.current?.focus();
        }}
      />
      <div className="q-owner__backdrop" hidden={!menuOpen} onClick={() => setMenuOpen(false)} />
      <main className="q-owner__main" id={MAIN_ID} tabIndex={-1} inert={menuOpen || undefined}>
        <BlogStateNotice blog={blog} />
        {/* A new reload count mounts the screen afresh, so it loads its data again. A screen whose code is
            still on its way (its first visit) shows a spinner meanwhile. */}
        <Suspense key={reloadCount(location.state)} fallback={<Spinner label="Loading" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
