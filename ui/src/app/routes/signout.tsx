import { SignOut } from '../../features/auth';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/signout`: signs out, then shows the landing page. */
export function SignoutRoute() {
  useDocumentTitle('Signing out');
  return <SignOut />;
}
