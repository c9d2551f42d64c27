import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { loadEditors } from '../../features/posts';

/** `/d/posts/new`: the editor for a new post, once its code is loaded (the router waits for it). */
export async function loadNewPostRoute() {
  const { PostEditor } = await loadEditors();
  return function NewPostRoute() {
    const { blog } = useOwner();
    return (
      <OwnerPage title="New Post">
        <PostEditor blogId={blog.id} post={null} config={appConfig()} />
      </OwnerPage>
    );
  };
}
