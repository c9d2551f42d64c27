import { AuthCallback } from '../../features/auth';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/auth/callback`: the sign-in popup's last stop. */
export function AuthCallbackRoute() {
  useDocumentTitle('Signing in');
  return <AuthCallback />;
}
