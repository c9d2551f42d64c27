import { OwnerPage, useOwner } from '../../features/owner';
import { PostSearch } from '../../features/posts';

/** `/d/posts/search`: search the blog's posts. */
export function PostsSearchRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Search Posts">
      <PostSearch blogId={blog.id} />
    </OwnerPage>
  );
}
