import { useState } from 'react';
import { Checkbox, ErrorLine } from '../../components';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { setCommentsClosed } from './api';

/**
 * 'Close comments' in a saved post's editor: saved as soon as it is switched (not with the post),
 * so the post's page drops its comment form at once. Comments already approved stay shown.
 */
export function CommentsSwitch({ blogId, postId, closed }: { blogId: number; postId: string; closed: boolean }) {
  const [isClosed, setClosed] = useState(closed);
  const save = useSaveAction();
  return (
    <div>
      <Checkbox
        label="Close comments"
        hint="The post's page stops taking comments; those already approved stay."
        checked={isClosed}
        disabled={save.loading}
        onChange={(checked) => void save.run(async () => setClosed(await setCommentsClosed(blogId, postId, checked)))}
      />
      <ErrorLine message={failureText(save.failure)} />
    </div>
  );
}
