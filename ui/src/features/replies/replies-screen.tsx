import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, Pager, Spinner } from '../../components';
import { paths } from '../../config/paths';
import { cx } from '../../lib/cx';
import { errorMessage } from '../../lib/error-message';
import { pageFromParam } from '../../lib/page-param';
import { useLoad } from '../../lib/use-load';
import { approveReply, deleteReply, fetchReplies, type Reply, type ReplyState } from './api';

/** What the owner confirms before a reply goes. */
export const DELETE_REPLY_QUESTION = 'Delete this reply? It is removed from Quire, and from your blog if it was shown.';

const TABS: { state: ReplyState; label: string; empty: string }[] = [
  { state: 'held', label: 'Held', empty: 'No replies are waiting for your approval.' },
  { state: 'approved', label: 'Approved', empty: 'No approved replies yet.' },
];

/** `?state=approved` shows the approved replies; anything else the held ones. */
export function stateFromParam(raw: string | null): ReplyState {
  return raw === 'approved' ? 'approved' : 'held';
}

/** A date and time as the owner's browser shows them. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The address's query for the list `state` at `page` (the held list and page 1 leave theirs out). */
export function repliesQuery(state: ReplyState, page: number): Record<string, string> {
  return { ...(state === 'held' ? {} : { state }), ...(page > 1 ? { p: String(page) } : {}) };
}

/**
 * The Replies screen: replies from the fediverse to the blog's posts, the held ones (waiting for the
 * owner's approval before the post's page shows them) or the approved ones, newest first, a page at
 * a time, each with Approve (held ones) and Delete. Which list shows lives in `?state=`, the page in
 * `?p=`. Once the last reply of a page goes, the page is loaded again (or the one before it).
 */
export function RepliesScreen({ blogId }: { blogId: number }) {
  const [params, setParams] = useSearchParams();
  const state = stateFromParam(params.get('state'));
  const page = pageFromParam(params.get('p'));
  const list = useLoad((signal) => fetchReplies(blogId, state, page, signal), [blogId, state, page]);
  const tab = TABS.find((t) => t.state === state) ?? TABS[0]!;
  const goTo = (target: number) => setParams(repliesQuery(state, target));
  const drop = (id: number) => {
    const left = list.lastData?.replies.filter((reply) => reply.id !== id) ?? [];
    if (left.length > 0) {
      list.setData((shown) => ({ ...shown, replies: left }));
    } else if (page > 1) {
      goTo(page - 1);
    } else {
      void list.reload();
    }
  };

  return (
    <div className="q-replies">
      <p className="q-replies__intro">
        Replies from Mastodon and other fediverse servers wait here until you approve them; approved replies show under
        their post.
      </p>
      <div className="q-replies__tabs" role="tablist" aria-label="Replies">
        {TABS.map((t) => (
          <button
            key={t.state}
            type="button"
            role="tab"
            id={`q-replies-tab-${t.state}`}
            aria-selected={t.state === state}
            aria-controls="q-replies-panel"
            className={cx('q-replies__tab', t.state === state && 'q-replies__tab--current')}
            onClick={() => setParams(repliesQuery(t.state, 1))}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id="q-replies-panel" role="tabpanel" aria-labelledby={`q-replies-tab-${state}`} className="q-replies__panel">
        {list.status === 'loading' && <Spinner label="Loading replies" />}
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
        {list.status === 'ready' && list.data.replies.length === 0 && <p className="q-replies__empty">{tab.empty}</p>}
        {list.status === 'ready' && list.data.replies.length > 0 && (
          <>
            <ul className="q-replies__list" aria-label={`${tab.label} replies`}>
              {list.data.replies.map((reply) => (
                <li key={reply.id}>
                  <ReplyCard blogId={blogId} reply={reply} onGone={() => drop(reply.id)} />
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

/** One reply: who wrote it, on which post, when, its text, and what the owner can do. */
function ReplyCard({ blogId, reply, onGone }: { blogId: number; reply: Reply; onGone: () => void }) {
  const [busy, setBusy] = useState<'approve' | 'delete' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = (which: 'approve' | 'delete', work: () => Promise<unknown>) => {
    setBusy(which);
    setFailure(null);
    work().then(
      () => onGone(),
      (error: unknown) => {
        setFailure(errorMessage(error));
        setBusy(null);
      },
    );
  };
  const approve = () => run('approve', () => approveReply(blogId, reply.id));
  const remove = () => {
    if (!window.confirm(DELETE_REPLY_QUESTION)) return;
    run('delete', () => deleteReply(blogId, reply.id));
  };

  return (
    <article className="q-card q-reply" aria-label={`Reply by ${reply.authorName}`}>
      <p className="q-reply__meta">
        <a href={reply.authorUrl} target="_blank" rel="noopener noreferrer nofollow ugc" className="q-reply__author">
          {reply.authorName}
        </a>{' '}
        <span className="q-reply__handle">{reply.authorHandle}</span> on{' '}
        <Link to={paths.editPost(reply.postId)}>{reply.postTitle}</Link> ·{' '}
        {reply.url ? (
          <a href={reply.url} target="_blank" rel="noopener noreferrer nofollow ugc">
            <time dateTime={reply.publishedAt}>{localDateTime(reply.publishedAt)}</time>
          </a>
        ) : (
          <time dateTime={reply.publishedAt}>{localDateTime(reply.publishedAt)}</time>
        )}
      </p>
      <p className="q-reply__text">{reply.text}</p>
      <div className="q-reply__actions">
        {reply.state === 'held' && (
          <Button onClick={approve} loading={busy === 'approve'} disabled={busy !== null}>
            Approve
          </Button>
        )}
        <Button variant="danger" onClick={remove} loading={busy === 'delete'} disabled={busy !== null}>
          Delete
        </Button>
      </div>
      {failure && (
        <p className="q-reply__error" role="alert">
          {failure}
        </p>
      )}
    </article>
  );
}
