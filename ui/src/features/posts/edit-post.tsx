import { Button, ButtonLink, Spinner } from '../../components';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { useLoad } from '../../lib/use-load';
import { fetchPost } from './api';
import { PostEditor, type PostEditorProps } from './post-editor';

/** Loads a post by its short id and shows the editor only once it is there, never empty at first. */
export function EditPost({
  blogId,
  shortId,
  config,
}: {
  blogId: number;
  shortId: string;
  config: PostEditorProps['config'];
}) {
  const load = useLoad((signal) => fetchPost(blogId, shortId, signal), [blogId, shortId]);

  switch (load.status) {
    case 'idle':
    case 'loading':
      return <Spinner label="Loading the post" />;
    case 'failed':
      if (load.error instanceof ApiError && load.error.status === 404) {
        return (
          <div className="q-post-missing" role="alert">
            <p>This post does not exist. It may have been deleted.</p>
            <p>
              <ButtonLink to={paths.posts}>Back to your posts</ButtonLink>
            </p>
          </div>
        );
      }
      return (
        <div className="q-post-missing">
          <p role="alert">{errorMessage(load.error)}</p>
          <p>
            <Button variant="secondary" onClick={() => void load.reload()}>
              Try again
            </Button>
          </p>
        </div>
      );
    case 'ready':
      return <PostEditor key={load.data.shortId} blogId={blogId} post={load.data} config={config} />;
  }
}
