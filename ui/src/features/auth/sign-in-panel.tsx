import { useState, type ReactNode } from 'react';
import { Button, ErrorLine } from '../../components';
import { SignupModal } from './signup-modal';
import { usePopupSignIn } from './use-popup-sign-in';
import './auth.css';

export interface SignInPanelProps {
  /** The provider named on the buttons, e.g. `Google` or `Local`. */
  providerName: string;
  /** Show the signup modal from the start (the /signup route). */
  initialSignupOpen?: boolean;
  /** Called after the signup modal was closed without signing up. */
  onSignupClosed?: () => void;
  /** Signup is offered (not under `--signups closed`, where only Login stays). */
  signupOffered?: boolean;
  /** Extra lines of the signup notice: the signup mode, the operator's pages. */
  signupNotes?: ReactNode;
}

/** The landing page's controls: 'Login with …', 'or Signup' and the signup modal. */
export function SignInPanel({
  providerName,
  initialSignupOpen = false,
  onSignupClosed,
  signupOffered = true,
  signupNotes,
}: SignInPanelProps) {
  const { signIn, pending, blocked, failure } = usePopupSignIn();
  const [signupOpen, setSignupOpen] = useState(initialSignupOpen && signupOffered);
  const busy = pending !== null;

  const closeSignup = () => {
    setSignupOpen(false);
    onSignupClosed?.();
  };

  return (
    <div className="q-sign-in">
      <Button onClick={() => signIn('login')} loading={pending === 'login'} disabled={busy}>
        Login with {providerName}
      </Button>
      {signupOffered && (
        <Button variant="link" onClick={() => setSignupOpen(true)} disabled={busy}>
          or Signup
        </Button>
      )}
      {blocked && (
        <p className="q-sign-in__blocked" role="alert">
          Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.
        </p>
      )}
      {!signupOpen && <ErrorLine message={failure} />}
      <SignupModal
        failure={failure}
        open={signupOpen}
        notes={signupNotes}
        onClose={closeSignup}
        onSignup={() => signIn('signup')}
        providerName={providerName}
        busy={pending === 'signup'}
        disabled={pending === 'login'}
      />
    </div>
  );
}
