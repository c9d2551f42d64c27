import { Button, ButtonLink, Spinner } from '../../components';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { useLoad } from '../../lib/use-load';
import { useState } from 'react';
import { fetchPost, type Post } from './api';
import { PostEditor, type PostEditorProps } from './post-editor';

/** Loads a post by its short id and shows the editor only once it is there, never empty at first. */
export function EditPost({
  blogId,
  shortId,
  config,
  theme,
}: {
  blogId: number;
  shortId: string;
  config: PostEditorProps['config'];
  theme?: string;
}) {
  const load = useLoad((signal) => fetchPost(blogId, shortId, signal), [blogId, shortId]);
  const [replaced, setReplaced] = useState<Post | null>(null);

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
    case 'ready': {
      // After a restore from the History, the editor starts again on the restored post.
      const post = replaced ?? load.data;
      return (
        <PostEditor
          key={post.updatedAt}
          blogId={blogId}
          post={post}
          config={config}
          onReplaced={setReplaced}
          theme={theme}
        />
      );
    }
  }
}
