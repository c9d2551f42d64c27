import { useNavigate } from 'react-router';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { SignInPanel, useRedirectWhenSignedIn } from '../../features/auth';
import { LandingHero } from '../../features/landing';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/` and `/signup` (the same page with the signup modal open). Signed-in visitors go on to /d/posts. */
export function LandingRoute({ signup = false }: { signup?: boolean }) {
  useDocumentTitle(null);
  useRedirectWhenSignedIn();
  const navigate = useNavigate();
  return (
    <LandingHero>
      <SignInPanel
        providerName={appConfig().providerName}
        initialSignupOpen={signup}
        // Closing the modal on /signup leaves the address of what is shown: the landing page.
        onSignupClosed={signup ? () => navigate(paths.landing, { replace: true }) : undefined}
      />
    </LandingHero>
  );
}
