import { OwnerPage, useOwner } from '../../features/owner';
import { RepliesScreen } from '../../features/replies';

/** `/d/replies`: replies from the fediverse, held for approval or shown. */
export function RepliesRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Replies">
      <RepliesScreen blogId={blog.id} />
    </OwnerPage>
  );
}
