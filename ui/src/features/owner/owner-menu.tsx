import type { MouseEvent, Ref } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Logo } from '../../components';
import { paths } from '../../config/paths';
import { cx } from '../../lib/cx';
import { useSignOut } from '../auth';
import type { Blog } from '../blogs';

/** Router state that asks the owner shell to mount the current screen afresh. */
export interface ReloadState {
  reload: number;
}

/** The counter in the current location's state; 0 when the location was not a reload. */
export function reloadCount(state: unknown): number {
  const reload = (state as Partial<ReloadState> | null)?.reload;
  return typeof reload === 'number' ? reload : 0;
}

export interface OwnerMenuProps {
  id: string;
  blog: Blog;
  /** The Support entry's address; no entry when null. */
  supportUrl: string | null;
  /** One of the instance's admins: an Admin entry leads to the Admin screen. */
  isAdmin?: boolean;
  /** Slid in (phones); on wide screens the menu always shows. */
  open: boolean;
  /** Any entry was chosen. */
  onChoose: () => void;
  /** The slid-in menu's own close button (phones only) was pressed. */
  onClose: () => void;
  ref?: Ref<HTMLElement>;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cx('q-owner-menu__link', isActive && 'q-owner-menu__link--active');

/** A plain left click: not one that asks the browser to open the link elsewhere (a new tab or window). */
const isPlainClick = (event: MouseEvent<HTMLAnchorElement>) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** The owner area's side menu. The current screen's entry is highlighted. */
export function OwnerMenu({ id, blog, supportUrl, isAdmin = false, open, onChoose, onClose, ref }: OwnerMenuProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const { signOut } = useSignOut();

  // A click on the entry of the screen already shown reloads that screen: navigate to it again
  // with a new reload count, which the shell uses as the screen's key.
  const reloadIfCurrent = (to: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    onChoose();
    if (!isPlainClick(event) || location.pathname !== to) return;
    event.preventDefault();
    const state: ReloadState = { reload: reloadCount(location.state) + 1 };
    navigate(to, { state, replace: location.search === '' && location.hash === '' });
  };

  // Signout signs out on this click, as the owner expects. The link still leads to /signout, so
  // opened in a new tab it shows the question there instead (that page never signs out by itself).
  const signOutNow = (event: MouseEvent<HTMLAnchorElement>) => {
    onChoose();
    if (!isPlainClick(event)) return;
    event.preventDefault();
    signOut();
  };

  return (
    <nav id={id} ref={ref} aria-label="Menu" className={cx('q-owner-menu', open && 'q-owner-menu--open')}>
      <div className="q-owner-menu__brand">
        <Logo className="q-owner-menu__logo" />
        <span className="q-owner-menu__blog">{blog.name}</span>
        <button type="button" className="q-owner-menu__close" aria-label="Close menu" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <ul className="q-owner-menu__list">
        <li>
          <NavLink to={paths.posts} className={linkClass} onClick={reloadIfCurrent(paths.posts)}>
            Posts
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.responses} className={linkClass} onClick={reloadIfCurrent(paths.responses)}>
            Responses
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.settings} className={linkClass} onClick={reloadIfCurrent(paths.settings)}>
            Settings
          </NavLink>
        </li>
        {isAdmin && (
          <li>
            <NavLink to={paths.admin} className={linkClass} onClick={reloadIfCurrent(paths.admin)}>
              Admin
            </NavLink>
          </li>
        )}
        <li>
          <a
            href={blog.url}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass({ isActive: false })}
            onClick={onChoose}
          >
            Open blog
          </a>
        </li>
        {supportUrl && (
          <li>
            <a
              href={supportUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={linkClass({ isActive: false })}
              onClick={onChoose}
            >
              Support
            </a>
          </li>
        )}
        <li>
          <Link to={paths.signout} className={linkClass({ isActive: false })} onClick={signOutNow}>
            Signout
          </Link>
        </li>
      </ul>
    </nav>
  );
}
