import { Button, Checkbox } from '../../components';
import type { Visibility } from './api';
import { primaryLabel, showsDraftCheckbox, type EditorState } from './editor-state';
import { VisibilityField } from './visibility-field';

export interface EditorToolbarProps {
  state: EditorState;
  onToggleEditing: () => void;
  onDraftChange: (draft: boolean) => void;
  onVisibilityChange: (visibility: Visibility) => void;
  onAnnounceChange: (announce: boolean) => void;
  /** Null hides 'Delete' (a post not saved yet). */
  onDelete: (() => void) | null;
  saving: boolean;
  deleting: boolean;
  /** An image is uploading: the post waits for it. */
  uploading: boolean;
  /** The preview is showing (or being rendered). */
  previewing: boolean;
  onTogglePreview: () => void;
  /** Opens the post's History (docs/revisions.md); absent for a post not saved yet. */
  onHistory?: () => void;
}

/** The editor's bar: 'Edit blocks', 'Mark as draft', Public / Unlisted, 'Delete' and the submit button. */
export function EditorToolbar({
  state,
  onToggleEditing,
  onDraftChange,
  onVisibilityChange,
  onAnnounceChange,
  onDelete,
  saving,
  deleting,
  uploading,
  previewing,
  onTogglePreview,
  onHistory,
}: EditorToolbarProps) {
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
      {onHistory && (
        <Button variant="secondary" className="q-post-editor__history" onClick={onHistory}>
          History
        </Button>
      )}
      {showsDraftCheckbox(state) && (
        <Checkbox
          label="Mark as draft"
          checked={state.draft}
          onChange={onDraftChange}
          className="q-post-editor__draft"
        />
      )}
      <VisibilityField state={state} onVisibilityChange={onVisibilityChange} onAnnounceChange={onAnnounceChange} />
      <span className="q-post-editor__spacer" />
      {onDelete && (
        <Button
          variant="danger"
          className="q-post-editor__delete"
          loading={deleting}
          disabled={saving}
          onClick={onDelete}
        >
          Delete
        </Button>
      )}
      <Button type="submit" className="q-post-editor__submit" loading={saving} disabled={deleting || uploading}>
        {primaryLabel(state)}
      </Button>
    </div>
  );
}
