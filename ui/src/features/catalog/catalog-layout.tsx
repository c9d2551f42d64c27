import { useEffect, useRef } from 'react';
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
        <nav ref={navRef} aria-label="Component demos">
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
        <Outlet />
      </main>
    </div>
  );
}
