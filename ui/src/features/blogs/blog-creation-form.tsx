import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, TextInput } from '../../components';
import { ApiError } from '../../lib/api';
import { createBlog } from './api';
import './blogs.css';

export interface BlogCreationFormProps {
  /** The public host (`{subdomain}.{host}`), e.g. `localhost:8080`. */
  host: string;
  /** Called once the blog exists (the owner area reloads the page). */
  onCreated: () => void;
  /** Shown under the form: who is signed in, and the way out (the owner area's). */
  children?: ReactNode;
}

/**
 * The blog-creation ('Welcome') screen: a signed-in user without a blog picks a subdomain. The rules
 * live on the server; the last message it sends shows under the input until the input changes.
 */
export function BlogCreationForm({ host, onCreated, children }: BlogCreationFormProps) {
  const [subdomain, setSubdomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      await createBlog(subdomain);
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
        <Button type="submit" loading={saving}>
          Signup
        </Button>
      </form>
      {children}
    </main>
  );
}
