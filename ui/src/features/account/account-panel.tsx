import { useRef, useState } from 'react';
import { Button, Checkbox, Panel } from '../../components';
import { failureText } from '../../lib/use-save-action';
import { deleteAccount } from './api';

export interface AccountPanelProps {
  blogId: number;
  /** Called once the account is gone (the screen goes to /). */
  onDeleted: () => void;
}

/**
 * The 'Account' panel: a collapsed 'Danger Zone!' whose 'Delete Account' button stays
 * disabled until the owner ticks that they understand. The button is disabled while the call runs,
 * so a double click sends one request.
 */
export function AccountPanel({ blogId, onDeleted }: AccountPanelProps) {
  const [understood, setUnderstood] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const running = useRef(false);

  const remove = async () => {
    if (running.current || !understood) return;
    running.current = true;
    setDeleting(true);
    setFailure(null);
    try {
      await deleteAccount(blogId);
    } catch (error) {
      running.current = false;
      setDeleting(false);
      setFailure(error);
      return;
    }
    onDeleted();
  };

  const message = failureText(failure);

  return (
    <Panel title="Account">
      <Panel title="Danger Zone!" tone="danger" headingLevel={3} collapsible defaultCollapsed>
        <div className="q-settings__stack">
          <p>
            Deleting your blog removes all of its posts permanently, and your account with them. This cannot be undone.
            The same subdomain cannot be used to sign up again.
          </p>
          <Checkbox label="I understand what I'm going to do." checked={understood} onChange={setUnderstood} />
          <div>
            <Button variant="danger" onClick={() => void remove()} disabled={!understood} loading={deleting}>
              Delete Account
            </Button>
          </div>
          {message && (
            <p className="q-settings__error" role="alert">
              {message}
            </p>
          )}
        </div>
      </Panel>
    </Panel>
  );
}
