import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { Post } from './api';
import { sameBlock } from './conflict';
import { contentOf, type EditorAction, type EditorState } from './editor-state';
import { clearPostDraft, loadPostDraft, pruneOldPostDrafts, savePostDraft, type PostDraft } from './post-drafts';

/** How long typing pauses before the local draft is written. */
export const POST_DRAFT_DELAY_MS = 800;

/** Whether a draft holds what the post holds (then there is nothing to offer). */
function sameAsPost(draft: PostDraft, post: Post): boolean {
  const blocks = post.body.children;
  const unpublished = post.publishedAt === null && !post.scheduledAt;
  return (
    draft.blocks.length === blocks.length &&
    draft.blocks.every((block, i) => sameBlock(block, blocks[i]!)) &&
    draft.tags.join('\n') === (post.tags ?? []).join('\n') &&
    draft.page === (post.page ?? false) &&
    draft.draft === unpublished
  );
}

export interface PostDraftOffer {
  /** The stored draft offered back when the editor opened; null once restored or discarded (or when there is none). */
  offer: PostDraft | null;
  /** Puts the draft in the editor, based on its version (a newer one on the server makes the save a conflict). */
  restore: () => void;
  /** Forgets the draft. */
  discard: () => void;
}

/**
 * The local draft of an existing post (docs/edit-conflicts.md): offered back when the editor
 * opens, written as the blogger types (after a short pause, and at once when the page is
 * hidden), never while the offer is open. `setVersion` takes the restored draft's version.
 */
export function usePostDraft(
  blogId: number,
  post: Post | null,
  state: EditorState,
  dispatch: Dispatch<EditorAction>,
  version: number | undefined,
  setVersion: (version: number | undefined) => void,
): PostDraftOffer {
  const [offer, setOffer] = useState<PostDraft | null>(() => {
    if (!post) return null;
    pruneOldPostDrafts();
    const draft = loadPostDraft(blogId, post.shortId);
    if (draft && sameAsPost(draft, post)) {
      clearPostDraft(blogId, post.shortId);
      return null;
    }
    return draft;
  });
  const pending = useRef<PostDraft | null>(null);
  const shortId = post?.shortId ?? null;

  const write = () => {
    if (shortId !== null && pending.current) savePostDraft(blogId, shortId, pending.current);
    pending.current = null;
  };

  useEffect(() => {
    if (shortId === null || state.revision === 0 || offer) return;
    pending.current = {
      ...contentOf(state),
      tags: state.tags,
      page: state.page,
      savedAt: Date.now(),
      ...(version !== undefined ? { version } : {}),
    };
    const timer = window.setTimeout(write, POST_DRAFT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.revision]);

  useEffect(() => {
    if (shortId === null) return;
    window.addEventListener('pagehide', write);
    return () => window.removeEventListener('pagehide', write);
  }, [shortId]);

  return {
    offer,
    restore: () => {
      if (!offer) return;
      dispatch({ type: 'restore', content: offer });
      setVersion(offer.version);
      setOffer(null);
    },
    discard: () => {
      if (shortId !== null) clearPostDraft(blogId, shortId);
      setOffer(null);
    },
  };
}
