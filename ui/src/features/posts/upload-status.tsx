import { Button, Spinner } from '../../components';
import type { Upload } from './use-image-upload';

/** Where the image block will go: the running upload, or why it failed with 'Dismiss'. */
export function UploadStatus({ upload, onDismiss }: { upload: Upload; onDismiss: () => void }) {
  if (upload.status === 'idle') return null;
  if (upload.status === 'uploading') {
    return (
      <div className="q-post-editor__upload" role="status">
        <Spinner /> Uploading {upload.name}…
      </div>
    );
  }
  return (
    <div className="q-post-editor__upload q-post-editor__upload--failed" role="alert">
      <span>The image could not be uploaded: {upload.message}</span>
      <Button variant="link" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
