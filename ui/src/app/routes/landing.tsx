import { useNavigate } from 'react-router';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { SignInPanel, useRedirectWhenSignedIn } from '../../features/auth';
import { fetchInstance, InstanceShowcase, LandingHero, OperatorLinks, signupModeLine } from '../../features/landing';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useLoad } from '../../lib/use-load';

/**
 * `/` and `/signup` (the same page with the signup modal open). Signed-in visitors go on to /d/posts.
 * The signup mode adds its line (`--signups`); under `closed` only Login is offered. The operator's
 * pages and contact address are linked when given. Below them, what the instance is: the operator's
 * description and the newest posts of the blogs listed there (`GET /api/instance`).
 */
export function LandingRoute({ signup = false }: { signup?: boolean }) {
  useDocumentTitle(null);
  useRedirectWhenSignedIn();
  const navigate = useNavigate();
  const { providerName, signups, termsUrl, privacyUrl, contactEmail } = appConfig();
  const modeLine = signupModeLine(signups);
  const instance = useLoad(fetchInstance, []);
  return (
    <LandingHero>
      <SignInPanel
        providerName={providerName}
        initialSignupOpen={signup}
        signupOffered={signups !== 'closed'}
        signupNotes={
          <>
            {modeLine && <p className="q-signup-mode">{modeLine}</p>}
            <OperatorLinks termsUrl={termsUrl} privacyUrl={privacyUrl} />
          </>
        }
        // Closing the modal on /signup leaves the address of what is shown: the landing page.
        onSignupClosed={signup ? () => navigate(paths.landing, { replace: true }) : undefined}
      />
      {modeLine && <p className="q-signup-mode">{modeLine}</p>}
      <OperatorLinks termsUrl={termsUrl} privacyUrl={privacyUrl} contactEmail={contactEmail} />
      <InstanceShowcase instance={instance.lastData ?? null} />
    </LandingHero>
  );
}
