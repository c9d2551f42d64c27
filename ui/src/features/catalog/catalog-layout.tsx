import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Logo } from '../../components';
import { catalogDemos, paths } from '../../config/paths';
import { cx } from '../../lib/cx';
import './catalog.css';

/** The catalog frame: a side navigation of the demos (current one highlighted) beside the demo. */
export function CatalogLayout() {
  const { pathname } = useLocation();
  const navRef = useRef<HTMLElement>(null);
  // On phones the navigation is a horizontal strip: keep the current demo's link in view.
  useEffect(() => {
    const current = navRef.current?.querySelector<HTMLElement>('[aria-current="page"]');
    current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  const more = useHiddenSides(navRef);

  return (
    <div className="catalog">
      <a className="catalog__skip" href="#catalog-main">
        Skip to the demo
      </a>
      <aside className="catalog__sidebar">
        <Link to={paths.catalog} className="catalog__brand">
          <Logo className="catalog__logo" />
          <span>Catalog</span>
        </Link>
        <nav ref={navRef} aria-label="Component demos" data-more={more ?? undefined}>
          <ul className="catalog__nav">
            {catalogDemos.map((demo) => (
              <li key={demo.slug}>
                <NavLink
                  to={paths.catalogDemo(demo.slug)}
                  className={({ isActive }) => cx('catalog__link', isActive && 'catalog__link--active')}
                >
                  {demo.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <main id="catalog-main" className="catalog__main" tabIndex={-1}>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

type HiddenSides = 'start' | 'end' | 'both' | null;

/**
 * Which sides of a horizontally scrolling element have content scrolled out of view, kept up to date
 * on scroll and resize. The catalog's phone strip fades those edges, so it shows that it scrolls.
 */
function useHiddenSides(ref: RefObject<HTMLElement | null>): HiddenSides {
  const [sides, setSides] = useState<HiddenSides>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const start = element.scrollLeft > 1;
      const end = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setSides(start && end ? 'both' : start ? 'start' : end ? 'end' : null);
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    resize?.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [ref]);
  return sides;
}
