// What the landing page and the signup notice say about who may sign up (`--signups`) and the
// operator's pages (`--terms`, `--privacy`, `--contact-email`): docs/public-instance.md.
import type { SignupMode } from '../../config/app-config';

/** The line a signup mode adds to the landing page and the signup notice; none under `open`. */
export function signupModeLine(mode: SignupMode): string | null {
  switch (mode) {
    case 'approval':
      return 'New blogs are reviewed before they are listed.';
    case 'invite':
      return 'Signups are by invitation.';
    case 'closed':
      return 'Signups are closed.';
    case 'open':
      return null;
  }
}

export interface OperatorLinksProps {
  /** `/terms`, or null when the operator has none. */
  termsUrl: string | null;
  /** `/privacy`, or null when the operator has none. */
  privacyUrl: string | null;
  /** The operator's address, shown as a mailto link; null shows none. */
  contactEmail?: string | null;
}

/** 'Terms · Privacy' and 'Contact: …', each only when the operator gave it; nothing at all otherwise. */
export function OperatorLinks({ termsUrl, privacyUrl, contactEmail = null }: OperatorLinksProps) {
  const pages = [
    { label: 'Terms', url: termsUrl },
    { label: 'Privacy', url: privacyUrl },
  ].filter((page): page is { label: string; url: string } => page.url !== null);
  if (pages.length === 0 && contactEmail === null) return null;
  return (
    <p className="q-operator-links">
      {pages.map((page, index) => (
        <span key={page.url}>
          {index > 0 && ' · '}
          {/* Server-rendered pages of the app host: a full page load, not the app's router. */}
          <a href={page.url}>{page.label}</a>
        </span>
      ))}
      {pages.length > 0 && contactEmail !== null && ' · '}
      {contactEmail !== null && (
        <span>
          Contact: <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </span>
      )}
    </p>
  );
}
