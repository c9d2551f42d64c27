import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { PostEditor } from '../../features/posts';

/** `/d/posts/new`: the editor for a new post. */
export function NewPostRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="New Post">
      <PostEditor blogId={blog.id} post={null} config={appConfig()} />
    </OwnerPage>
  );
}
