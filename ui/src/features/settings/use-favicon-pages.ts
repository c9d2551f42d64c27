import { useState } from 'react';
import { useLoad } from '../../lib/use-load';
import type { Favicon } from '../blogs';
import { fetchFavicons } from './api';

/** The icons loaded so far and what comes next. */
export interface FaviconPages {
  icons: Favicon[];
  /** The page to load next, or null once the last page (totalPages) is in. */
  nextPage: number | null;
  loading: boolean;
  /** Why the last page did not load, or null. */
  failure: unknown;
  /** Loads `nextPage`, unless a page is loading or there is none left. */
  loadMore: () => void;
}

interface Loaded {
  icons: Favicon[];
  nextPage: number | null;
}

/**
 * The icon list, one page at a time (docs/api.md, 'Themes and favicons'): page 1 first, then the
 * page after the `pageNumber` the server answered, until `totalPages`.
 */
export function useFaviconPages(): FaviconPages {
  // The page asked for last; null until the picker wants icons.
  const [page, setPage] = useState<number | null>(null);
  const load = useLoad<Loaded>(
    page === null
      ? null
      : async (signal, loaded) => {
          const { favicons, paging } = await fetchFavicons(page, signal);
          const current = paging.pageNumber > 0 ? paging.pageNumber : page;
          return {
            // The pages before stay: each page's icons are added to them.
            icons: [...(loaded?.icons ?? []), ...favicons],
            nextPage: current < paging.totalPages && favicons.length > 0 ? current + 1 : null,
          };
        },
    [page],
  );
  const loading = load.status === 'loading';
  const nextPage = load.lastData ? load.lastData.nextPage : 1;

  const loadMore = () => {
    if (nextPage === null || loading) return;
    if (nextPage !== page) setPage(nextPage);
    // Asked for already: again only after it failed ('Try again'), not while its load starts.
    else if (load.status === 'failed') void load.reload();
  };

  return {
    icons: load.lastData?.icons ?? [],
    nextPage,
    loading,
    failure: load.status === 'failed' ? load.error : null,
    loadMore,
  };
}
