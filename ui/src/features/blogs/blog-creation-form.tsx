import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, TextInput } from '../../components';
import { ApiError } from '../../lib/api';
import { createBlog } from './api';
import { forgetInvite, storedInvite } from './invite-link';
import './blogs.css';

export interface BlogCreationFormProps {
  /** The public host (`{subdomain}.{host}`), e.g. `localhost:8080`. */
  host: string;
  /** Called once the blog exists (the owner area reloads the page). */
  onCreated: () => void;
  /** The instance is by invitation (`--signups invite`): the form asks for the code. */
  inviteNeeded?: boolean;
  /** Shown under the form: who is signed in, and the way out (the owner area's). */
  children?: ReactNode;
}

/**
 * The blog-creation ('Welcome') screen: a signed-in user without a blog picks a subdomain (and, on
 * an instance by invitation, gives the invite code an invite link filled in). The rules live on the
 * server; the last message it sends (a refusal of the code, the daily limits) shows under the
 * subdomain until an input changes.
 */
export function BlogCreationForm({ host, onCreated, inviteNeeded = false, children }: BlogCreationFormProps) {
  const [subdomain, setSubdomain] = useState('');
  const [invite, setInvite] = useState(() => (inviteNeeded ? storedInvite() : ''));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      await createBlog(subdomain, inviteNeeded ? invite.trim() : undefined);
      forgetInvite();
      onCreated();
    } catch (failure) {
      const messages = failure instanceof ApiError ? failure.messages : [String(failure)];
      setError(messages[messages.length - 1] ?? null);
      setSaving(false);
    }
  };

  return (
    <main className="q-center-column q-welcome">
      <h1>Welcome</h1>
      <p>Choose the subdomain you would like for your blog. It will be the address readers visit.</p>
      <form className="q-welcome__form" onSubmit={submit} noValidate>
        <TextInput
          label="Preferred subdomain"
          value={subdomain}
          onChange={(value) => {
            setSubdomain(value);
            setError(null);
          }}
          suffix={`.${host}`}
          error={error}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        {inviteNeeded && (
          <TextInput
            label="Invite code"
            value={invite}
            onChange={(value) => {
              setInvite(value);
              setError(null);
            }}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
        <Button type="submit" loading={saving}>
          Signup
        </Button>
      </form>
      {children}
    </main>
  );
}
