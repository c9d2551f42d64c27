import { useState } from 'react';
import { Link } from 'react-router';
import { Button, ButtonLink, Spinner } from '../../../components';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/error-message';
import { useLoad } from '../../../lib/use-load';
import { formatPublished } from '../post-card';
import { fetchTrash, purgeFromTrash, restoreFromTrash, type TrashEntry } from './api';

/** Asked before 'Delete forever'. */
export const PURGE_QUESTION = 'Delete this post forever? It cannot be brought back.';

/**
 * The Trash: deleted posts kept for 30 days, last deleted first, each with when it was deleted and
 * when it goes for good, 'Restore' and 'Delete forever'.
 */
export function TrashList({ blogId }: { blogId: number }) {
  const list = useLoad((signal) => fetchTrash(blogId, signal), [blogId]);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; shortId?: string; error?: boolean } | null>(null);

  const act = async (entry: TrashEntry, purge: boolean) => {
    if (purge && !window.confirm(PURGE_QUESTION)) return;
    setBusy(entry.id);
    setMessage(null);
    try {
      if (purge) {
        await purgeFromTrash(blogId, entry.id);
        setMessage({ text: `"${entry.title}" was deleted forever.` });
      } else {
        const post = await restoreFromTrash(blogId, entry.id);
        setMessage({ text: `"${entry.title}" is back among your posts.`, shortId: post.shortId });
      }
      await list.reload();
    } catch (error) {
      setMessage({ text: errorMessage(error), error: true });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="q-trash">
      <p className="q-trash__intro">
        Deleted posts stay here for 30 days, then they are removed for good.{' '}
        <ButtonLink to={paths.posts} variant="secondary">
          Back to your posts
        </ButtonLink>
      </p>
      {message && (
        <p className={message.error ? 'q-trash__error' : 'q-trash__done'} role={message.error ? 'alert' : 'status'}>
          {message.text} {message.shortId && <Link to={paths.editPost(message.shortId)}>Open it</Link>}
        </p>
      )}
      {list.status === 'loading' && <Spinner label="Loading the trash" />}
      {list.status === 'failed' && <p role="alert">{errorMessage(list.error)}</p>}
      {list.status === 'ready' && list.data.trash.length === 0 && <p className="q-trash__empty">The trash is empty.</p>}
      {list.status === 'ready' && list.data.trash.length > 0 && (
        <ul className="q-trash__list" aria-label="Deleted posts">
          {list.data.trash.map((entry) => (
            <li key={entry.id} className="q-trash__entry">
              <h2 className="q-trash__title">{entry.title}</h2>
              <p className="q-trash__meta">
                Deleted <time dateTime={entry.deletedAt}>{formatPublished(entry.deletedAt)}</time> · removed for good{' '}
                <time dateTime={entry.expiresAt}>{formatPublished(entry.expiresAt)}</time>
                {entry.page && ' · Page'}
                {!entry.published && ' · Draft'}
              </p>
              <div className="q-trash__actions">
                <Button variant="secondary" loading={busy === entry.id} onClick={() => void act(entry, false)}>
                  Restore
                </Button>
                <Button variant="danger" disabled={busy === entry.id} onClick={() => void act(entry, true)}>
                  Delete forever
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** 'Trash (3)' for the post list, once the trash holds something. */
export function TrashLink({ blogId }: { blogId: number }) {
  const trash = useLoad((signal) => fetchTrash(blogId, signal, 1), [blogId]);
  if (trash.status !== 'ready' || trash.data.total === 0) return null;
  return (
    <ButtonLink to={paths.trash} variant="secondary">
      Trash ({trash.data.total})
    </ButtonLink>
  );
}
