import { SignOut } from '../../features/auth';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/signout`: asks whether to sign out, and does on the owner's click. */
export function SignoutRoute() {
  useDocumentTitle('Sign out');
  return <SignOut />;
}
