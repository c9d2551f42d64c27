import { useParams } from 'react-router';
import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { loadEditors } from '../../features/posts';

/** `/d/posts/{shortId}/edit`: the editor for an existing post; its code is a chunk of its own (`lazyScreen`). */
export async function loadEditPostRoute() {
  const { EditPost } = await loadEditors();
  return function EditPostRoute() {
    const { blog } = useOwner();
    const { shortId = '' } = useParams();
    return (
      <OwnerPage title="Edit Post">
        <EditPost key={shortId} blogId={blog.id} shortId={shortId} config={appConfig()} theme={blog.theme.name} />
      </OwnerPage>
    );
  };
}
