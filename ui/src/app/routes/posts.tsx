import { PagesPanel, PostList } from '../../features/posts';
import { OwnerPage, useOwner } from '../../features/owner';

/** `/d/posts`: the post list. */
export function PostsRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Posts">
      <PostList blogId={blog.id} />
      <PagesPanel blogId={blog.id} />
    </OwnerPage>
  );
}
