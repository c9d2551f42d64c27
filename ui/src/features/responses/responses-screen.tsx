import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, ErrorLine, Pager, Spinner } from '../../components';
import { cx } from '../../lib/cx';
import { errorMessage } from '../../lib/error-message';
import { pageFromParam } from '../../lib/page-param';
import { useLoad } from '../../lib/use-load';
import { actOnMany, fetchResponses, type BulkAction, type Response, type ResponseState } from './api';
import { ResponseCard } from './response-card';

const TABS: { state: ResponseState; label: string; empty: string }[] = [
  { state: 'held', label: 'Held', empty: 'Nothing is waiting for your approval.' },
  { state: 'approved', label: 'Approved', empty: 'No approved responses yet.' },
  { state: 'spam', label: 'Spam', empty: 'Nothing in Spam.' },
];

/** `?state=approved` or `?state=spam` shows that list; anything else the held one. */
export function stateFromParam(raw: string | null): ResponseState {
  return raw === 'approved' || raw === 'spam' ? raw : 'held';
}

/** The address's query for the list `state` at `page` (the held list and page 1 leave theirs out). */
export function responsesQuery(state: ResponseState, page: number): Record<string, string> {
  return { ...(state === 'held' ? {} : { state }), ...(page > 1 ? { p: String(page) } : {}) };
}

/** A response's key in the selection: ids are unique within a kind. */
export const keyOf = (response: Response) => `${response.kind}:${response.id}`;

/** What the owner confirms before several responses go. */
export const deleteManyQuestion = (count: number) =>
  `Delete ${count === 1 ? 'this response' : `these ${count} responses`}? They are removed from Quire, and from your blog where they were shown.`;

/**
 * The Responses screen: the one queue of everything readers sent the blog's posts (replies from
 * the fediverse, comments, webmentions), newest first, a page at a time, in three lists: Held
 * (waiting for the owner), Approved (shown under their post) and Spam. Each response can be
 * approved, put in Spam or deleted (a comment's address blocked too, and the owner can answer a
 * comment); the selected ones are acted on together. Which list shows lives in `?state=`, the page
 * in `?p=`. Once the last response of a page goes, the page is loaded again (or the one before).
 */
export function ResponsesScreen({ blogId }: { blogId: number }) {
  const [params, setParams] = useSearchParams();
  const state = stateFromParam(params.get('state'));
  const page = pageFromParam(params.get('p'));
  const list = useLoad((signal) => fetchResponses(blogId, state, page, signal), [blogId, state, page]);
  const tab = TABS.find((t) => t.state === state) ?? TABS[0]!;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const goTo = (target: number) => {
    setSelected(new Set());
    setParams(responsesQuery(state, target));
  };
  const shown = list.status === 'ready' ? list.data.responses : [];
  const refill = (left: Response[]) => {
    if (left.length > 0) {
      list.setData((data) => ({ ...data, responses: left }));
    } else if (page > 1) {
      goTo(page - 1);
    } else {
      void list.reload();
    }
  };
  const drop = (gone: Response) => {
    setSelected((keys) => new Set([...keys].filter((key) => key !== keyOf(gone))));
    refill((list.lastData?.responses ?? []).filter((r) => keyOf(r) !== keyOf(gone)));
  };
  const replace = (changed: Response) =>
    list.setData((data) => ({
      ...data,
      responses: data.responses.map((r) => (keyOf(r) === keyOf(changed) ? changed : r)),
    }));

  return (
    <div className="q-responses">
      <p className="q-responses__intro">
        Replies from the fediverse, comments and webmentions wait here until you approve them; approved ones show under
        their post.
      </p>
      <div className="q-responses__tabs" role="tablist" aria-label="Responses">
        {TABS.map((t) => (
          <button
            key={t.state}
            type="button"
            role="tab"
            id={`q-responses-tab-${t.state}`}
            aria-selected={t.state === state}
            aria-controls="q-responses-panel"
            className={cx('q-responses__tab', t.state === state && 'q-responses__tab--current')}
            onClick={() => {
              setSelected(new Set());
              setParams(responsesQuery(t.state, 1));
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id="q-responses-panel"
        role="tabpanel"
        aria-labelledby={`q-responses-tab-${state}`}
        className="q-responses__panel"
      >
        {list.status === 'loading' && <Spinner label="Loading responses" />}
        {list.status === 'failed' && (
          <>
            <p role="alert">{errorMessage(list.error)}</p>
            {page > 1 && (
              <>
                <Button variant="secondary" onClick={() => goTo(1)}>
                  First page
                </Button>{' '}
              </>
            )}
            <Button variant="secondary" onClick={() => void list.reload()}>
              Try again
            </Button>
          </>
        )}
        {list.status === 'ready' && shown.length === 0 && <p className="q-responses__empty">{tab.empty}</p>}
        {list.status === 'ready' && shown.length > 0 && (
          <>
            <BulkBar
              blogId={blogId}
              state={state}
              shown={shown}
              selected={selected}
              onSelect={setSelected}
              onDone={() => {
                setSelected(new Set());
                void list.reload();
              }}
            />
            <ul className="q-responses__list" aria-label={`${tab.label} responses`}>
              {shown.map((response) => (
                <li key={keyOf(response)}>
                  <ResponseCard
                    blogId={blogId}
                    response={response}
                    selected={selected.has(keyOf(response))}
                    onSelect={(on) =>
                      setSelected((keys) => {
                        const next = new Set(keys);
                        if (on) next.add(keyOf(response));
                        else next.delete(keyOf(response));
                        return next;
                      })
                    }
                    onMoved={(to) => (to === state ? replace({ ...response, state: to }) : drop(response))}
                    onChanged={replace}
                    onGone={() => drop(response)}
                  />
                </li>
              ))}
            </ul>
            <Pager page={list.data.paging.pageNumber || page} totalPages={list.data.paging.totalPages} onGo={goTo} />
          </>
        )}
      </div>
    </div>
  );
}

/** Select all on the page, and act on the selected responses together. */
function BulkBar({
  blogId,
  state,
  shown,
  selected,
  onSelect,
  onDone,
}: {
  blogId: number;
  state: ResponseState;
  shown: Response[];
  selected: ReadonlySet<string>;
  onSelect: (keys: ReadonlySet<string>) => void;
  onDone: () => void;
}) {
  const [busy, setBusy] = useState<BulkAction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const chosen = shown.filter((r) => selected.has(keyOf(r)));
  const all = chosen.length === shown.length;
  const run = (action: BulkAction) => {
    if (action === 'delete' && !window.confirm(deleteManyQuestion(chosen.length))) return;
    setBusy(action);
    setFailure(null);
    actOnMany(blogId, chosen, action).then(
      () => {
        setBusy(null);
        onDone();
      },
      (error: unknown) => {
        setFailure(errorMessage(error));
        setBusy(null);
      },
    );
  };
  const none = chosen.length === 0 || busy !== null;
  return (
    <div className="q-responses__bulk">
      <label className="q-responses__select-all">
        <input
          type="checkbox"
          checked={all}
          onChange={() => onSelect(all ? new Set() : new Set(shown.map(keyOf)))}
          aria-label="Select all on this page"
        />
        <span>{chosen.length === 0 ? 'Select all' : `${chosen.length} selected`}</span>
      </label>
      {state !== 'approved' && (
        <Button variant="secondary" onClick={() => run('approve')} loading={busy === 'approve'} disabled={none}>
          Approve selected
        </Button>
      )}
      {state !== 'spam' && (
        <Button variant="secondary" onClick={() => run('spam')} loading={busy === 'spam'} disabled={none}>
          Spam selected
        </Button>
      )}
      <Button variant="secondary" onClick={() => run('delete')} loading={busy === 'delete'} disabled={none}>
        Delete selected
      </Button>
      <ErrorLine message={failure} />
    </div>
  );
}
