import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Spinner } from '../../components';
import { appConfig } from '../../config/app-config';
import { landingReturningTo } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { reloadPage } from '../../lib/reload-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useLoad } from '../../lib/use-load';
import { fetchSession, useSignOut, type User } from '../auth';
import { BLOG_REFRESH_KEY, BlogCreationForm, fetchBlog, type Blog } from '../blogs';
import { OwnerContext, type Owner } from './owner-context';
import { OwnerShell } from './owner-shell';

/** Who is here: nobody (on the way to the landing page), an owner without a blog yet, or with one. */
type Gate =
  | { status: 'signed-out' }
  | { status: 'no-blog'; user: User }
  | { status: 'ready'; user: User; blog: Blog; isAdmin: boolean };

/**
 * The session, then the blog. Loaded again (`refreshBlog()`, after a screen changed the blog), it
 * keeps the session and fetches the blog alone; a failure then is the refresh's, 401 included.
 */
async function loadGate(signal: AbortSignal, previous: Gate | undefined): Promise<Gate> {
  if (previous?.status === 'ready') return { ...previous, blog: await fetchBlog(previous.blog.id, signal) };
  try {
    const session = await fetchSession(signal);
    if (session === null) return { status: 'signed-out' };
    if (session.blogId === null) return { status: 'no-blog', user: session.user };
    const blog = await fetchBlog(session.blogId, signal);
    return { status: 'ready', user: session.user, blog, isAdmin: session.isAdmin };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { status: 'signed-out' };
    throw error;
  }
}

/**
 * The owner area's gate (/d/*): loads the session and the blog. Signed out, it goes to the landing
 * page; without a blog, every /d/* path shows the blog-creation screen; otherwise the shell with
 * the menu and the current screen.
 */
export function OwnerArea() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const load = useLoad(loadGate, [], { refreshKey: BLOG_REFRESH_KEY });
  // While the blog loads again, and after that failed, the screens keep showing the one they have.
  const gate = load.lastData;

  const signedOut = gate?.status === 'signed-out';
  useEffect(() => {
    // Sign-in comes back here (e.g. to an app's sign-in request on the consent screen).
    if (signedOut) navigate(landingReturningTo(`${pathname}${search}`), { replace: true });
  }, [signedOut, navigate, pathname, search]);

  const owner = useMemo<Owner | null>(
    () => (gate?.status === 'ready' ? { user: gate.user, blog: gate.blog, isAdmin: gate.isAdmin } : null),
    [gate],
  );

  if (gate === undefined && load.status === 'failed')
    return <LoadFailed message={errorMessage(load.error)} onRetry={() => void load.reload()} />;
  switch (gate?.status) {
    case 'no-blog':
      return <Welcome user={gate.user} />;
    case 'ready':
      return (
        <OwnerContext.Provider value={owner}>
          <OwnerShell blog={gate.blog} supportUrl={appConfig().supportUrl} isAdmin={gate.isAdmin} />
        </OwnerContext.Provider>
      );
    default:
      // Loading, or signed out and on the way to the landing page.
      return (
        <main className="q-center-column q-center-page">
          <Spinner label="Loading your blog" />
        </main>
      );
  }
}

/** Blog creation, with who is signed in and 'Signout' for someone who used the wrong account. */
function Welcome({ user }: { user: User }) {
  useDocumentTitle('Welcome');
  const { signOut, signingOut } = useSignOut();
  return (
    <BlogCreationForm
      host={appConfig().host}
      inviteNeeded={appConfig().signups === 'invite'}
      onCreated={() => reloadPage()}
    >
      <div className="q-welcome__account">
        <p>
          Signed in as <strong>{user.email}</strong>
        </p>
        <Button variant="link" onClick={() => signOut()} loading={signingOut}>
          Signout
        </Button>
      </div>
    </BlogCreationForm>
  );
}

function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  useDocumentTitle('Something went wrong');
  return (
    <main className="q-center-column q-center-page">
      <h1>Your blog could not be loaded</h1>
      <p role="alert">{message}</p>
      <Button onClick={onRetry}>Try again</Button>
    </main>
  );
}
