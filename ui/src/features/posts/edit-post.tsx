import { useEffect, useState } from 'react';
import { Button, ButtonLink, Spinner } from '../../components';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { fetchPost, type Post } from './api';
import { PostEditor, type PostEditorProps } from './post-editor';

type State =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; post: Post };

/** Loads a post by its short id and shows the editor only once it is there (SPEC §2). */
export function EditPost({
  blogId,
  shortId,
  config,
}: {
  blogId: number;
  shortId: string;
  config: PostEditorProps['config'];
}) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetchPost(blogId, shortId, controller.signal).then(
      (post) => setState({ status: 'ready', post }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setState({ status: 'missing' });
        else setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [blogId, shortId, attempt]);

  switch (state.status) {
    case 'loading':
      return <Spinner label="Loading the post" />;
    case 'missing':
      return (
        <div className="q-post-missing" role="alert">
          <p>This post does not exist. It may have been deleted.</p>
          <p>
            <ButtonLink to={paths.posts}>Back to your posts</ButtonLink>
          </p>
        </div>
      );
    case 'failed':
      return (
        <div className="q-post-missing">
          <p role="alert">{state.message}</p>
          <p>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </p>
        </div>
      );
    case 'ready':
      return <PostEditor key={state.post.shortId} blogId={blogId} post={state.post} config={config} />;
  }
}
