import type { ReactNode } from 'react';
import { Button, ErrorLine, Modal } from '../../components';

export interface SignupModalProps {
  open: boolean;
  onClose: () => void;
  onSignup: () => void;
  /** The provider named on the signup button, e.g. `Google`. */
  providerName: string;
  /** A signup is in progress: its button spins and nothing else can be pressed. */
  busy: boolean;
  /** Another sign-in (the Login button's) is in progress. */
  disabled: boolean;
  /** Shown under the notice: the instance's signup mode and its terms and privacy links. */
  notes?: ReactNode;
  /** Why the last sign-in failed, if it did. */
  failure?: string | null;
}

/** The signup notice (what Quire is and that it uses cookies) with the signup and 'Cancel' buttons. */
export function SignupModal({
  open,
  onClose,
  onSignup,
  providerName,
  busy,
  disabled,
  notes,
  failure = null,
}: SignupModalProps) {
  const locked = busy || disabled;
  return (
    <Modal
      open={open}
      // While the popup is up the dialog stays; closing the popup ends the sign-in.
      onClose={() => {
        if (!locked) onClose();
      }}
      title="Signup"
      size="small"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={locked}>
            Cancel
          </Button>
          <Button onClick={onSignup} loading={busy} disabled={disabled}>
            Signup with {providerName}
          </Button>
        </>
      }
    >
      <ul className="q-signup-notice">
        <li>Quire is a hobby project.</li>
        <li>Cookies are used to authenticate and identify users.</li>
        <li>If signup fails, change browser and try again.</li>
      </ul>
      {notes}
      <ErrorLine message={failure} />
    </Modal>
  );
}
