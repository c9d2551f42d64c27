import { useEffect } from 'react';
import { ApiError } from './api';
import type { Load } from './use-load';

/**
 * Goes back a page (`setPage`) when a change (a removal on the last page) left `page` past the end
 * of a paged list: its load came back `empty`, or failed with the server's 400 on `page`. True while
 * that is so, for the screen to show no error meanwhile.
 */
export function usePageBack<T>(
  page: number,
  list: Load<T>,
  empty: (data: T) => boolean,
  setPage: (update: (current: number) => number) => void,
): boolean {
  const pastTheEnd =
    page > 1 &&
    ((list.status === 'ready' && empty(list.data)) ||
      (list.status === 'failed' && list.error instanceof ApiError && 'page' in list.error.fields));
  useEffect(() => {
    if (pastTheEnd) setPage((current) => current - 1);
  }, [pastTheEnd, setPage]);
  return pastTheEnd;
}
