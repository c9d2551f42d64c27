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
  /** The search the icons answer; '' for every icon. */
  query: string;
  /** Starts over with the icons a search finds ('' for every icon), from its first page. */
  search: (query: string) => void;
}

interface Loaded {
  query: string;
  icons: Favicon[];
  nextPage: number | null;
}

/**
 * The icon list, one page at a time (docs/api.md, 'Themes and favicons'): page 1 first, then the
 * page after the `pageNumber` the server answered, until `totalPages`. A search is paged the
 * same way, from its own page 1.
 */
export function useFaviconPages(): FaviconPages {
  const [query, setQuery] = useState('');
  // The page asked for last; null until the picker wants icons.
  const [wanted, setWanted] = useState<{ query: string; page: number } | null>(null);
  const load = useLoad<Loaded>(
    wanted === null
      ? null
      : async (signal, loaded) => {
          const { favicons, paging } = await fetchFavicons(wanted.page, signal, wanted.query);
          const current = paging.pageNumber > 0 ? paging.pageNumber : wanted.page;
          // The pages before of the same search stay: each page's icons are added to them.
          const before = loaded?.query === wanted.query ? loaded.icons : [];
          return {
            query: wanted.query,
            icons: [...before, ...favicons],
            nextPage: current < paging.totalPages && favicons.length > 0 ? current + 1 : null,
          };
        },
    [wanted],
  );
  const loading = load.status === 'loading';
  // What was loaded for another search is not shown, and this one starts at page 1.
  const loaded = load.lastData?.query === query ? load.lastData : undefined;
  const nextPage = loaded ? loaded.nextPage : 1;

  const loadMore = () => {
    if (nextPage === null || loading) return;
    if (wanted?.query !== query || wanted.page !== nextPage) setWanted({ query, page: nextPage });
    // Asked for already: again only after it failed ('Try again'), not while its load starts.
    else if (load.status === 'failed') void load.reload();
  };

  return {
    icons: loaded?.icons ?? [],
    nextPage,
    loading,
    failure: load.status === 'failed' ? load.error : null,
    loadMore,
    query,
    search: setQuery,
  };
}
