import { useParams } from 'react-router';
import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { EditPost } from '../../features/posts';

/** `/d/posts/{shortId}/edit`: the editor for an existing post, once it is loaded. */
export function EditPostRoute() {
  const { blog } = useOwner();
  const { shortId = '' } = useParams();
  return (
    <OwnerPage title="Edit Post">
      <EditPost key={shortId} blogId={blog.id} shortId={shortId} config={appConfig()} />
    </OwnerPage>
  );
}
