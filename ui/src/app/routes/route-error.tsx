import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Shown instead of a screen that threw while rendering or loading. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
  console.error(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <main className="q-center-column q-center-page" role="alert">
      <h1>Something went wrong</h1>
      <p>This screen failed to show. Reloading the page usually helps.</p>
      {detail && (
        <p>
          <code>{detail}</code>
        </p>
      )}
      <Link to={paths.landing}>Go to the home page</Link>
    </main>
  );
}
