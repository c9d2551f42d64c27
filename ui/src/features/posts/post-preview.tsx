// The editor's Preview: the blocks as readers will see them, rendered by the server's own
// renderer (POST /api/my/blogs/{id}/preview, the one the public pages use), never by a second
// Markdown implementation here.
import { useRef, useState } from 'react';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { previewPost, type Block } from './api';
import type { BlockErrors } from './validation';

export type PreviewState =
  | { status: 'off' }
  | { status: 'loading' }
  | { status: 'shown'; title: string; html: string }
  | { status: 'failed'; message: string };

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
      const { title, html } = await previewPost(blogId, blocks, controller.signal);
      if (!controller.signal.aborted) setState({ status: 'shown', title, html });
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

/**
 * The rendered post. Its HTML comes from the server's renderer, which escapes every string it
 * is given and only writes its own tags (no script, no event attribute, no link but http, https
 * and mailto), which is why it may be inserted as HTML; the app's Content-Security-Policy would
 * refuse to run an inline script even if one got through.
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
      <h1 className="q-preview__title">{state.title}</h1>
      <div className="q-preview__body" dangerouslySetInnerHTML={{ __html: state.html }} />
    </article>
  );
}
