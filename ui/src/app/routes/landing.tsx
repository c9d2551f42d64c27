import { LandingHero } from '../../features/landing/landing-hero';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/` and, for now, `/signup`: the logo and what Quire is. Sign-in arrives with the auth feature. */
export function LandingRoute() {
  useDocumentTitle(null);
  return <LandingHero />;
}
