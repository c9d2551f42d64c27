import { useState, type ReactNode } from 'react';
import { Button, Pager, Spinner } from '../../components';
import { appConfig } from '../../config/app-config';
import type { Paging } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import type { Load } from '../../lib/use-load';

/** A time as the admin's browser shows it. */
export function localDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The blog's public address. */
export function blogUrl(subdomain: string): string {
  const { scheme, host } = appConfig();
  return `${scheme}://${subdomain}.${host}/`;
}

/** A list that could not be loaded: why, and a way to try again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="q-admin__failed">
      <p role="alert">{errorMessage(error)}</p>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * A paged list of cards (blogs, reports): a spinner until the first page comes, what failed with
 * a way to try again (above the last page loaded, if any), the `empty` line, and the pager.
 */
export function CardList<P extends { paging: Paging }, T extends { id: number }>({
  list,
  items,
  label,
  empty,
  loading,
  page,
  onPage,
  card,
}: {
  list: Load<P>;
  items: (data: P) => T[];
  label: string;
  empty: string;
  loading: string;
  page: number;
  onPage: (page: number) => void;
  card: (item: T) => ReactNode;
}) {
  const data = list.lastData;
  if (data === undefined) {
    if (list.status === 'failed') return <LoadFailed error={list.error} onRetry={() => void list.reload()} />;
    return <Spinner label={loading} />;
  }
  return (
    <>
      {list.status === 'failed' && <LoadFailed error={list.error} onRetry={() => void list.reload()} />}
      {items(data).length === 0 ? (
        <p className="q-admin__empty">{empty}</p>
      ) : (
        <ul className="q-admin__list" aria-label={label}>
          {items(data).map((item) => (
            <li key={item.id}>{card(item)}</li>
          ))}
        </ul>
      )}
      <Pager page={data.paging.pageNumber || page} totalPages={data.paging.totalPages} onGo={onPage} />
    </>
  );
}

/**
 * What a card's buttons share: which one is busy, what the last one failed with, and `run`, which
 * does `work` and hands the line it answers to `onDone` (a failure stays on the card instead).
 */
export function useCardAction<K extends string>(onDone: (line: string) => void) {
  const [busy, setBusy] = useState<K | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = (which: K, work: () => Promise<string>) => {
    setBusy(which);
    setFailure(null);
    work().then(
      (line) => {
        setBusy(null);
        onDone(line);
      },
      (error: unknown) => {
        setFailure(errorMessage(error));
        setBusy(null);
      },
    );
  };
  return { busy, failure, run };
}

/** A card's last failure, if any. */
export function CardFailure({ failure }: { failure: string | null }) {
  return failure ? (
    <p className="q-admin-blog__error" role="alert">
      {failure}
    </p>
  ) : null;
}
