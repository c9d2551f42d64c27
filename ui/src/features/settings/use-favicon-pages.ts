import { useCallback, useEffect, useRef, useState } from 'react';
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

/**
 * The icon list, one page at a time (SPEC §7, §9): page 1 first, then the page after the
 * `pageNumber` the server answered, until `totalPages`.
 */
export function useFaviconPages(): FaviconPages {
  const [icons, setIcons] = useState<Favicon[]>([]);
  const [nextPage, setNextPage] = useState<number | null>(1);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  // The page being fetched: a second call while it runs (a double intersection, StrictMode) waits.
  const inFlight = useRef<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      controller.current?.abort();
      controller.current = null;
      inFlight.current = null;
    },
    [],
  );

  const loadMore = useCallback(() => {
    if (nextPage === null || inFlight.current !== null) return;
    const page = nextPage;
    const abort = new AbortController();
    controller.current = abort;
    inFlight.current = page;
    setLoading(true);
    setFailure(null);
    fetchFavicons(page, abort.signal).then(
      ({ favicons, paging }) => {
        if (abort.signal.aborted) return;
        inFlight.current = null;
        setIcons((loaded) => [...loaded, ...favicons]);
        const current = paging.pageNumber > 0 ? paging.pageNumber : page;
        setNextPage(current < paging.totalPages && favicons.length > 0 ? current + 1 : null);
        setLoading(false);
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        inFlight.current = null;
        setFailure(error);
        setLoading(false);
      },
    );
  }, [nextPage]);

  return { icons, nextPage, loading, failure, loadMore };
}
