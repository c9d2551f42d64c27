import { Button } from '../../components';
import { primaryLabel, type EditorState } from './editor-state';
import { EditorMoreMenu, type MoreAction } from './editor-more-menu';

/** The quiet line after a save that kept the editor open. */
export function savedAtLine(at: Date): string {
  return `Saved at ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

export interface EditorToolbarProps {
  state: EditorState;
  onToggleEditing: () => void;
  saving: boolean;
  /** Deleting or unpublishing: the saves wait. */
  busy: boolean;
  /** An image is uploading: the post waits for it. */
  uploading: boolean;
  /** The preview is showing (or being rendered). */
  previewing: boolean;
  onTogglePreview: () => void;
  /** Saves without leaving the editor (also Ctrl/Cmd+S). */
  onKeepWriting: () => void;
  /** When the last such save was stored. */
  savedAt: Date | null;
  /** Opens the post's History (docs/revisions.md); absent for a post not saved yet. */
  onHistory?: (() => void) | undefined;
  /** Takes the published post back to a draft; absent unless it is published. */
  onUnpublish?: (() => void) | undefined;
  /** Asks and deletes the post; absent for a post not saved yet. */
  onDelete?: (() => void) | undefined;
}

/**
 * The editor's bar, one row on every screen: 'Edit blocks', 'Preview', the "Saved at" line,
 * 'Save and keep writing', the More menu (History, Unpublish, Delete) and the submit button.
 * The post's settings ('Mark as draft', visibility, tags...) are in the panel beside or below
 * the blocks (post-settings.tsx).
 */
export function EditorToolbar({
  state,
  onToggleEditing,
  saving,
  busy,
  uploading,
  previewing,
  onTogglePreview,
  onKeepWriting,
  savedAt,
  onHistory,
  onUnpublish,
  onDelete,
}: EditorToolbarProps) {
  const more: MoreAction[] = [
    {
      label: 'Save and keep writing',
      onSelect: onKeepWriting,
      narrowOnly: true,
      disabled: saving || busy || uploading,
    },
    ...(onHistory ? [{ label: 'History', onSelect: onHistory }] : []),
    ...(onUnpublish ? [{ label: 'Unpublish', onSelect: onUnpublish, disabled: saving || busy }] : []),
    ...(onDelete ? [{ label: 'Delete', onSelect: onDelete, danger: true, disabled: saving || busy }] : []),
  ];
  return (
    <div className="q-post-editor__toolbar">
      <Button
        variant="secondary"
        className="q-post-editor__edit"
        aria-pressed={state.editing}
        onClick={onToggleEditing}
      >
        Edit blocks
      </Button>
      <Button
        variant="secondary"
        className="q-post-editor__preview"
        aria-pressed={previewing}
        onClick={onTogglePreview}
      >
        Preview
      </Button>
      <span className="q-post-editor__spacer" />
      <p className="q-post-editor__saved" role="status">
        {savedAt ? savedAtLine(savedAt) : ''}
      </p>
      <Button
        variant="secondary"
        className="q-post-editor__keep"
        loading={saving}
        disabled={busy || uploading}
        onClick={onKeepWriting}
        aria-keyshortcuts="Control+S Meta+S"
      >
        Save and keep writing
      </Button>
      <EditorMoreMenu actions={more} />
      <Button type="submit" className="q-post-editor__submit" loading={saving} disabled={busy || uploading}>
        {primaryLabel(state)}
      </Button>
    </div>
  );
}
