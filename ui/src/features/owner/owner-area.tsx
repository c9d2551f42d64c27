import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Spinner } from '../../components';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { reloadPage } from '../../lib/reload-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { fetchSession, type User } from '../auth';
import { BlogCreationForm, fetchBlog, type Blog } from '../blogs';
import { OwnerContext, type Owner } from './owner-context';
import { OwnerShell } from './owner-shell';

type State =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'no-blog'; user: User }
  | { status: 'ready'; user: User; blog: Blog };

/**
 * The owner area's gate (/d/*): loads the session and the blog. Signed out, it goes to the landing
 * page; without a blog, every /d/* path shows the blog-creation screen; otherwise the shell with
 * the menu and the current screen.
 */
export function OwnerArea() {
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const load = async () => {
      try {
        const session = await fetchSession(signal);
        if (session === null) {
          if (!signal.aborted) navigate(paths.landing, { replace: true });
          return;
        }
        if (session.blogId === null) {
          setState({ status: 'no-blog', user: session.user });
          return;
        }
        const blog = await fetchBlog(session.blogId, signal);
        setState({ status: 'ready', user: session.user, blog });
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ApiError && error.status === 401) {
          navigate(paths.landing, { replace: true });
          return;
        }
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    };
    void load();
    return () => controller.abort();
  }, [attempt, navigate]);

  const blogId = state.status === 'ready' ? state.blog.id : null;
  const reloadBlog = useCallback(async () => {
    if (blogId === null) throw new Error('quire: no blog to reload');
    const blog = await fetchBlog(blogId);
    setState((current) => (current.status === 'ready' ? { ...current, blog } : current));
    return blog;
  }, [blogId]);

  const owner = useMemo<Owner | null>(
    () => (state.status === 'ready' ? { user: state.user, blog: state.blog, reloadBlog } : null),
    [state, reloadBlog],
  );

  switch (state.status) {
    case 'loading':
      return (
        <main className="q-center-page">
          <Spinner label="Loading your blog" />
        </main>
      );
    case 'failed':
      return (
        <LoadFailed
          message={state.message}
          onRetry={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      );
    case 'no-blog':
      return <Welcome />;
    case 'ready':
      return (
        <OwnerContext.Provider value={owner}>
          <OwnerShell blog={state.blog} supportUrl={appConfig().supportUrl} />
        </OwnerContext.Provider>
      );
  }
}

function Welcome() {
  useDocumentTitle('Welcome');
  return <BlogCreationForm host={appConfig().host} onCreated={() => reloadPage()} />;
}

function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  useDocumentTitle('Something went wrong');
  return (
    <main className="q-center-page">
      <h1>Your blog could not be loaded</h1>
      <p role="alert">{message}</p>
      <Button onClick={onRetry}>Try again</Button>
    </main>
  );
}
