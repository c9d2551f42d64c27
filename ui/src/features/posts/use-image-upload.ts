import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppConfig, BlockRules } from '../../config/app-config';
import { errorMessage } from '../../lib/error-message';
import { uploadImage } from './api';
import { imageProblem } from './validation';

/** The editor's one image upload: none, running, or failed (until dismissed). */
export type Upload =
  | { status: 'idle' }
  | { status: 'uploading'; index: number; name: string }
  | { status: 'failed'; index: number; message: string };

export interface ImageUpload {
  upload: Upload;
  uploading: boolean;
  /** Checks `file` against the server's image rules, then uploads it for a block at `index`. */
  start: (file: File, index: number) => void;
  /** Forgets a failure. */
  dismiss: () => void;
}

/**
 * Image uploads for new image blocks: the file's type and size are checked before
 * sending, with the server's messages; the upload goes to the image host or this server; once
 * it answers, `onUploaded(index, link)` adds the block. A failure is logged and kept to show.
 */
export function useImageUpload(
  rules: BlockRules,
  config: Pick<AppConfig, 'imgurClientId'>,
  onUploaded: (index: number, link: string) => void,
): ImageUpload {
  const [upload, setUpload] = useState<Upload>({ status: 'idle' });
  // The latest callback: the upload outlives the render that started it.
  const uploaded = useRef(onUploaded);
  useEffect(() => {
    uploaded.current = onUploaded;
  });

  const start = useCallback(
    (file: File, index: number) => {
      const problem = imageProblem(file, rules);
      if (problem) {
        setUpload({ status: 'failed', index, message: problem });
        return;
      }
      setUpload({ status: 'uploading', index, name: file.name });
      uploadImage(file, config).then(
        (link) => {
          setUpload({ status: 'idle' });
          uploaded.current(index, link);
        },
        (error: unknown) => {
          console.error('quire: image upload failed', error);
          setUpload({ status: 'failed', index, message: errorMessage(error) });
        },
      );
    },
    [rules, config],
  );

  const dismiss = useCallback(() => setUpload({ status: 'idle' }), []);
  return { upload, uploading: upload.status === 'uploading', start, dismiss };
}
