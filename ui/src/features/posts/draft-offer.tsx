import { Button } from '../../components';

/** The offer of an existing post's local draft when its editor opens (docs/edit-conflicts.md). */
export function DraftOffer({
  savedAt,
  onRestore,
  onDiscard,
}: {
  /** When the draft was written (milliseconds since the epoch). */
  savedAt: number;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const when = new Date(savedAt).toLocaleString();
  return (
    <div className="q-draft-offer" role="status">
      <p>You have unsaved changes from {when}</p>
      <div className="q-draft-offer__actions">
        <Button variant="secondary" onClick={onRestore}>
          Restore
        </Button>
        <Button variant="secondary" onClick={onDiscard}>
          Discard
        </Button>
      </div>
    </div>
  );
}
