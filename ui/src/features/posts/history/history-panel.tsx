import { useState } from 'react';
import { Button, Modal, Pager, Spinner } from '../../../components';
import { errorMessage } from '../../../lib/error-message';
import { useLoad } from '../../../lib/use-load';
import type { Post } from '../api';
import { formatPublished } from '../post-card';
import { fetchRevisions, restoreRevision, type Revision } from './api';
import { RevisionDiff } from './revision-diff';

/** Asked before a restore. */
export const RESTORE_QUESTION =
  'Restore this version? Its title, blocks and tags replace the current ones (unsaved changes in the editor are lost); the current version stays in the history.';

const KIND: Record<Revision['kind'], string> = { save: 'Saved', autosave: 'Autosaved', restore: 'Restored over' };

export interface HistoryPanelProps {
  blogId: number;
  /** The post as saved now: the versions are compared with it. */
  post: Post;
  open: boolean;
  onClose: () => void;
  /** After a restore, with the post as it now is. */
  onRestored: (post: Post) => void;
}

/**
 * The editor's History: the post's revisions (when, who, which save replaced it), paged; one chosen
 * shows its diff against the current version and 'Restore this version'.
 */
export function HistoryPanel({ blogId, post, open, onClose, onRestored }: HistoryPanelProps) {
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<Revision | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const list = useLoad(
    (signal) => (open ? fetchRevisions(blogId, post.shortId, page, signal) : Promise.resolve(null)),
    [open, blogId, post.shortId, post.updatedAt, page],
  );

  const restore = async (revision: Revision) => {
    if (!window.confirm(RESTORE_QUESTION)) return;
    setRestoring(true);
    setFailure(null);
    try {
      const restored = await restoreRevision(blogId, post.shortId, revision.id);
      setChosen(null);
      onRestored(restored);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setRestoring(false);
    }
  };

  const current = { title: post.title, tags: post.tags, blocks: post.body.children };
  return (
    <Modal open={open} onClose={onClose} title="History" size="large" className="q-history">
      <div className="q-history__layout">
        <div className="q-history__versions">
          {list.status === 'loading' && <Spinner label="Loading the history" />}
          {list.status === 'failed' && <p role="alert">{errorMessage(list.error)}</p>}
          {list.status === 'ready' && list.data && list.data.revisions.length === 0 && (
            <p className="q-history__empty">No earlier versions yet: each save keeps the one it replaces.</p>
          )}
          {list.status === 'ready' && list.data && list.data.revisions.length > 0 && (
            <>
              <ol className="q-history__list" aria-label="Earlier versions">
                {list.data.revisions.map((revision) => (
                  <li key={revision.id}>
                    <button
                      type="button"
                      className="q-history__version"
                      aria-pressed={chosen?.id === revision.id}
                      onClick={() => setChosen(revision)}
                    >
                      <span className="q-history__when">
                        <time dateTime={revision.createdAt}>{formatPublished(revision.createdAt)}</time>
                      </span>
                      <span className="q-history__who">
                        {KIND[revision.kind]}
                        {revision.author ? ` by ${revision.author}` : ''}
                      </span>
                      <span className="q-history__title">{revision.title}</span>
                    </button>
                  </li>
                ))}
              </ol>
              <Pager page={page} totalPages={list.data.paging.totalPages} onGo={setPage} />
            </>
          )}
        </div>
        <div className="q-history__diff">
          {chosen ? (
            <>
              <RevisionDiff
                revision={{ title: chosen.title, tags: chosen.tags, blocks: chosen.body.children }}
                current={current}
              />
              {failure && (
                <p className="q-history__error" role="alert">
                  {failure}
                </p>
              )}
              <Button variant="primary" loading={restoring} onClick={() => void restore(chosen)}>
                Restore this version
              </Button>
            </>
          ) : (
            <p className="q-history__hint">Choose a version to compare it with the current one.</p>
          )}
        </div>
      </div>
    </Modal>
  );
}
