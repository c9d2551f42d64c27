import { useState, type ReactNode } from 'react';
import { Checkbox } from '../../components';
import { primaryLabel, showsDraftCheckbox, type EditorState } from './editor-state';

/** From this width up the settings sit beside the text (posts.css uses the same width), open. */
export const SETTINGS_BESIDE_QUERY = '(min-width: 75rem)';

/** The summary's second line: where the post stands, in a few words. */
export function settingsSummary(state: EditorState): string {
  const status =
    state.publishedAt !== null
      ? 'Published'
      : primaryLabel(state) === 'Schedule'
        ? 'Scheduled'
        : state.draft || state.persisted
          ? 'Draft'
          : 'Not saved yet';
  const parts = [status];
  if (state.page) parts.push('Page');
  else if (state.visibility === 'unlisted') parts.push('Unlisted');
  if (state.tags.length > 0) parts.push(state.tags.length === 1 ? '1 tag' : `${state.tags.length} tags`);
  return parts.join(' · ');
}

/**
 * The post's settings ('Mark as draft', visibility, 'Publish at', tags, 'Show as a page',
 * comments), after the blocks in the page and in the tab order: a panel beside the text on a wide
 * screen, open; a disclosure below it on a narrow one, closed until asked.
 */
export function PostSettings({
  state,
  onDraftChange,
  children,
}: {
  state: EditorState;
  onDraftChange: (draft: boolean) => void;
  children: ReactNode;
}) {
  const [startOpen] = useState(() =>
    typeof window.matchMedia === 'function' ? window.matchMedia(SETTINGS_BESIDE_QUERY).matches : true,
  );
  return (
    <details className="q-post-settings" open={startOpen}>
      <summary className="q-post-settings__summary">
        <span className="q-post-settings__title">Post settings</span>
        <span className="q-post-settings__state">{settingsSummary(state)}</span>
      </summary>
      <div className="q-post-settings__body">
        {showsDraftCheckbox(state) && (
          <Checkbox
            label="Mark as draft"
            checked={state.draft}
            onChange={onDraftChange}
            className="q-post-editor__draft"
          />
        )}
        {children}
      </div>
    </details>
  );
}
