import { useRef, type ChangeEvent } from 'react';
import { Button, Modal } from '../../components';
import type { BlockRules } from '../../config/app-config';
import type { BlockType } from './api';
import { BLOCK_LABELS, isBlockType } from './block-editor';

export interface AddBlockModalProps {
  open: boolean;
  onClose: () => void;
  /** A text or embed block was chosen. */
  onChoose: (type: Exclude<BlockType, 'image'>) => void;
  /** An image file was picked for a new image block. */
  onImage: (file: File) => void;
  /** An upload is running: another image waits. */
  imageDisabled?: boolean;
  /** The server's block types (offered in its order) and the image types the file picker accepts. */
  rules: Pick<BlockRules, 'blockTypes' | 'imageTypes'>;
}

/**
 * Add-block: heading, paragraph, link, image, spotify, tweet. Image opens the file
 * picker of a hidden file input; it lives inside the dialog, so it is not inert while the
 * dialog is up and the click that opens it is the user's own.
 */
export function AddBlockModal({ open, onClose, onChoose, onImage, imageDisabled = false, rules }: AddBlockModalProps) {
  const fileRef = useRef<HTMLInputElement>(null);

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // picking the same file again still reports a change
    if (file) onImage(file);
  };

  return (
    <Modal open={open} onClose={onClose} title="Add a block" size="small">
      <div className="q-add-block">
        {rules.blockTypes.filter(isBlockType).map((type) =>
          type === 'image' ? (
            <Button key={type} variant="secondary" disabled={imageDisabled} onClick={() => fileRef.current?.click()}>
              {BLOCK_LABELS[type]}
            </Button>
          ) : (
            <Button key={type} variant="secondary" onClick={() => onChoose(type)}>
              {BLOCK_LABELS[type]}
            </Button>
          ),
        )}
        <input
          ref={fileRef}
          type="file"
          accept={rules.imageTypes.join(',')}
          className="q-add-block__file"
          hidden
          tabIndex={-1}
          aria-label="Image file"
          onChange={picked}
        />
      </div>
    </Modal>
  );
}
