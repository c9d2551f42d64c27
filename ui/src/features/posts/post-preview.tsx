// The editor's Preview: the post as readers will see it. The server renders the unsaved blocks
// as the blog's own post page (POST /api/my/blogs/{id}/preview: its template, theme, custom CSS
// and embeds) and holds it for ten minutes on the blog's host; the editor frames that page,
// never a second rendering here.
import { useRef, useState } from 'react';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { previewPost, type Block } from './api';
import type { BlockErrors } from './validation';

export type PreviewState =
  { status: 'off' } | { status: 'loading' } | { status: 'shown'; page: string } | { status: 'failed'; message: string };

/** Shown when the server refuses the blocks: their messages go on the blocks themselves. */
export const PREVIEW_REFUSED = 'Fix the marked blocks to see the preview.';

/**
 * The preview's state and its toggle. Opening asks the server to render `blocks`; a refusal
 * (422) hands its messages by block to `onBlockErrors` and closes the preview, so the blocks
 * with their messages show again.
 */
export function usePreview(blogId: number, onBlockErrors: (errors: BlockErrors) => void) {
  const [state, setState] = useState<PreviewState>({ status: 'off' });
  const request = useRef<AbortController | null>(null);

  const close = () => {
    request.current?.abort();
    request.current = null;
    setState({ status: 'off' });
  };

  const open = async (blocks: Block[]) => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setState({ status: 'loading' });
    try {
      const { page } = await previewPost(blogId, blocks, controller.signal);
      if (!controller.signal.aborted) setState({ status: 'shown', page });
    } catch (error) {
      if (controller.signal.aborted) return;
      const errors: BlockErrors = {};
      if (error instanceof ApiError) {
        for (const [field, messages] of Object.entries(error.fields)) {
          const match = /^children\.(\d+)$/.exec(field);
          if (match) errors[Number(match[1])] = messages.join('\n');
        }
      }
      if (Object.keys(errors).length > 0) {
        onBlockErrors(errors);
        setState({ status: 'failed', message: PREVIEW_REFUSED });
      } else {
        console.error('quire: the preview failed', error);
        setState({ status: 'failed', message: errorMessage(error) });
      }
    }
  };

  /** On: render the blocks; off: back to the blocks. */
  const toggle = (blocks: Block[]) =>
    state.status === 'shown' || state.status === 'loading' ? close() : void open(blocks);

  return { state, toggle, close, showing: state.status === 'shown' || state.status === 'loading' };
}

/** The preview frame's accessible name. */
export const PREVIEW_FRAME_TITLE = 'Preview of the post as readers will see it';

/**
 * The rendered post: the blog's own page in a frame, tall enough to read it at length. The page
 * is on the blog's host and runs no script, so it cannot reach the owner app or size the frame
 * to its content; the frame scrolls instead.
 */
export function PostPreview({ state }: { state: PreviewState }) {
  if (state.status === 'loading')
    return (
      <p className="q-preview__status" role="status">
        Rendering the preview…
      </p>
    );
  if (state.status !== 'shown') return null;
  return (
    <article className="q-preview" aria-label="Preview">
      <iframe className="q-preview__frame" src={state.page} title={PREVIEW_FRAME_TITLE} />
    </article>
  );
}
