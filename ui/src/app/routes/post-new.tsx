import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { loadEditors } from '../../features/posts';

/** `/d/posts/new`: the editor for a new post; its code is a chunk of its own (`lazyScreen`). */
export async function loadNewPostRoute() {
  const { PostEditor } = await loadEditors();
  return function NewPostRoute() {
    const { blog } = useOwner();
    return (
      <OwnerPage title="New Post">
        <PostEditor blogId={blog.id} post={null} config={appConfig()} theme={blog.theme.name} />
      </OwnerPage>
    );
  };
}
