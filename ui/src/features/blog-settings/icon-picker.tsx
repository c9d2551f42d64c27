import { useEffect, useId, useRef, useState } from 'react';
import { Button, Modal, Spinner, TextInput } from '../../components';
import { appConfig } from '../../config/app-config';
import type { Favicon } from '../blogs';
import { failureText } from '../../lib/use-save-action';
import { FaviconImage } from './favicon-image';
import type { FaviconPages } from './use-favicon-pages';
import { canObserveVisibility, useVisible } from './use-visible';

export interface IconPickerProps {
  open: boolean;
  onClose: () => void;
  /** The icons loaded so far; the picker asks for the next page when its bottom comes into view. */
  pages: FaviconPages;
  /** The blog's icon now, marked in the grid. */
  current: Favicon;
  /** An icon was clicked. */
  onPick: (favicon: Favicon) => void;
  /** The picked icon is being saved. */
  saving: boolean;
  /** Why saving the picked icon failed. */
  error: string | null;
}

/** How long typing pauses before the search runs. */
export const SEARCH_DELAY_MS = 250;

/**
 * The tab-icon picker: a modal grid of icons, loaded page by page on scroll (there are
 * thousands), a search over their names and keywords, and the blog's icon marked.
 */
export function IconPicker({ open, onClose, ...grid }: IconPickerProps) {
  const { emojiCdn, emojiImages } = appConfig();
  // The server's own images are Twemoji's (Discord's maintained fork), whose licence (CC-BY 4.0)
  // asks for this credit.
  const credit = emojiCdn === null && emojiImages !== null && (
    <p className="q-icon-picker__credit">
      Emoji graphics: <a href="https://github.com/discord/twemoji">Twemoji</a>, © Twitter, Inc and other contributors,{' '}
      <a href="https://creativecommons.org/licenses/by/4.0/">CC-BY 4.0</a>
    </p>
  );
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Choose a tab icon"
      size="large"
      className="q-icon-picker"
      footer={credit || undefined}
    >
      <IconGrid {...grid} />
    </Modal>
  );
}

/** The search field: runs the search once typing pauses. */
function IconSearch({ pages }: { pages: FaviconPages }) {
  const [text, setText] = useState(pages.query);
  const { query, search } = pages;
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === query) return;
    const timer = setTimeout(() => search(wanted), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, query, search]);
  return (
    <TextInput
      type="search"
      label="Search icons"
      hideLabel
      placeholder="Search icons, e.g. cat, heart, rocket"
      className="q-icon-picker__search"
      value={text}
      onChange={setText}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

function IconGrid({ pages, current, onPick, saving, error }: Omit<IconPickerProps, 'open' | 'onClose'>) {
  const { icons, nextPage, loading, failure, loadMore, query } = pages;
  const currentId = `q-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}-current`;
  const sentinel = useRef<HTMLDivElement>(null);
  const bottomInView = useVisible(sentinel, icons.length);

  // Whenever the bottom of the grid is in view (again, or still, once a page has come in), fetch
  // the next page. A failed page waits for 'Try again' instead of being asked for in a loop.
  // Without IntersectionObserver the first page comes by itself and the rest by 'More icons'.
  const wantMore = canObserveVisibility() ? bottomInView : icons.length === 0;
  useEffect(() => {
    if (wantMore && nextPage !== null && !loading && failure === null) loadMore();
  }, [wantMore, nextPage, loading, failure, loadMore]);

  const loadFailure = failureText(failure);

  return (
    <div className="q-icon-picker__content" aria-busy={loading || saving || undefined}>
      {error && (
        <p className="q-settings__error" role="alert">
          {error}
        </p>
      )}
      <div className="q-icon-picker__bar">
        <IconSearch pages={pages} />
        <p className="q-icon-picker__current">
          <span id={currentId}>Current icon</span>
          <FaviconImage favicon={current} />
        </p>
      </div>
      {!loading && !loadFailure && query !== '' && icons.length === 0 && (
        <p className="q-icon-picker__empty" role="status">
          No icons match “{query}”.
        </p>
      )}
      <ul className="q-icon-grid" aria-label={query ? `Icons matching ${query}` : 'Icons'}>
        {icons.map((favicon) => {
          const isCurrent = favicon.id === current.id;
          return (
            <li key={favicon.id}>
              <button
                type="button"
                className="q-icon-grid__item"
                data-code={favicon.code}
                aria-current={isCurrent || undefined}
                aria-describedby={isCurrent ? currentId : undefined}
                onClick={() => {
                  if (!saving) onPick(favicon);
                }}
              >
                <FaviconImage favicon={favicon} />
              </button>
            </li>
          );
        })}
      </ul>
      <div ref={sentinel} className="q-icon-picker__more">
        {loading && <Spinner label="Loading icons" />}
        {loadFailure && (
          <>
            <p className="q-settings__error" role="alert">
              {loadFailure}
            </p>
            <Button variant="secondary" onClick={loadMore}>
              Try again
            </Button>
          </>
        )}
        {!loading && !loadFailure && nextPage !== null && !canObserveVisibility() && (
          <Button variant="secondary" onClick={loadMore}>
            More icons
          </Button>
        )}
      </div>
    </div>
  );
}
