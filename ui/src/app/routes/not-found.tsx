import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { OwnerPage } from '../../features/owner';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Any path the app does not know. */
export function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <main className="q-center-column q-center-page">
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <Link to={paths.landing}>Go to the home page</Link>
    </main>
  );
}

/** A /d/* path the owner area does not know: said inside the shell, so the menu stays at hand. */
export function OwnerNotFoundRoute() {
  return (
    <OwnerPage title="Page not found">
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to={paths.posts}>Go to your posts</Link>
      </p>
    </OwnerPage>
  );
}
