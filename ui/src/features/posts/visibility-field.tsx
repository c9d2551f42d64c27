// The post editor's visibility control (docs/unlisted.md): Public or Unlisted, and, on the save
// that makes a published unlisted post public, whether to announce it to followers.
import { Checkbox, Select, type SelectOption } from '../../components';
import type { Visibility } from './api';
import { showsAnnounce, type EditorState } from './editor-state';

const OPTIONS: readonly SelectOption[] = [
  { value: 'public', label: 'Public' },
  { value: 'unlisted', label: 'Unlisted' },
];

export interface VisibilityFieldProps {
  state: Pick<EditorState, 'visibility' | 'savedVisibility' | 'publishedAt' | 'page' | 'announce'>;
  onVisibilityChange: (visibility: Visibility) => void;
  onAnnounceChange: (announce: boolean) => void;
}

/** Public / Unlisted in the post settings, under 'Mark as draft'; nothing for a page (always public). */
export function VisibilityField({ state, onVisibilityChange, onAnnounceChange }: VisibilityFieldProps) {
  if (state.page) return null;
  return (
    <div className="q-post-editor__visibility">
      <Select
        label="Visibility"
        hint={state.visibility === 'unlisted' ? 'Only people with the link can find it.' : undefined}
        options={OPTIONS}
        value={state.visibility}
        onChange={(value) => onVisibilityChange(value === 'unlisted' ? 'unlisted' : 'public')}
      />
      {showsAnnounce(state) && (
        <Checkbox label="Announce to followers and subscribers" checked={state.announce} onChange={onAnnounceChange} />
      )}
    </div>
  );
}
