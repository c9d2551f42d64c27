import { OwnerPage, useOwner } from '../../features/owner';
import { TrashList } from '../../features/posts';

/** `/d/posts/trash`: deleted posts, kept for 30 days (docs/revisions.md). */
export function TrashRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Trash">
      <TrashList blogId={blog.id} />
    </OwnerPage>
  );
}
