// The theme's "Custom CSS" area (issue 32, docs/custom-css.md): a stylesheet on top of the theme,
// checked by the server as the owner types (debounced, through `POST .../css/check`, which stores
// nothing) and saved with its own button. Each check that passes answers the address of the
// blog's real home page with that CSS on its own host (held there for ten minutes), shown in a
// frame below: the live preview, under the blog's own strict policy (no script at all). A refusal
// keeps the last preview that passed and names the line.
import { useEffect, useState, type FormEvent } from 'react';
import { ButtonLink, SaveButton, TextArea } from '../../components';
import { ApiError } from '../../lib/api';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import type { Blog } from '../blogs';
import { checkCustomCss, fetchCustomCss, saveCustomCss } from './api';

/** How long typing must pause before the CSS is checked. */
export const CHECK_DELAY_MS = 600;

/** What the last check of the typed CSS said. */
type Check = { state: 'idle' } | { state: 'ok' } | { state: 'refused'; message: string };

export function CustomCssForm({ blog }: { blog: Blog }) {
  const load = useLoad((signal) => fetchCustomCss(blog.id, signal), [blog.id]);
  const [css, setCss] = useState<string | null>(null);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [preview, setPreview] = useState<string | null>(null);
  const save = useSaveAction();
  const stored = load.lastData;
  const value = css ?? stored ?? '';

  // The stored stylesheet's preview, once it is known (a suspended blog has no pages to show).
  const suspended = blog.state === 'suspended';
  useEffect(() => {
    if (stored === undefined || suspended) return;
    const controller = new AbortController();
    checkCustomCss(blog.id, stored, controller.signal).then(setPreview, () => undefined);
    return () => controller.abort();
  }, [blog.id, stored, suspended]);

  useEffect(() => {
    if (css === null || css === stored) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      checkCustomCss(blog.id, css, controller.signal).then(
        (address) => {
          setCheck({ state: 'ok' });
          setPreview(address);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof ApiError && error.status === 422) {
            setCheck({ state: 'refused', message: failureText(error, 'css') ?? '' });
          } else {
            setCheck({ state: 'idle' });
          }
        },
      );
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [blog.id, css, stored]);

  const change = (next: string) => {
    setCss(next);
    setCheck({ state: 'idle' });
    if (save.failure) save.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(async () => {
      const saved = await saveCustomCss(blog.id, value);
      load.setData(() => saved);
      setCss(null);
      setCheck({ state: 'idle' });
    });
  };

  const error =
    failureText(save.failure, 'css') ??
    (check.state === 'refused' ? check.message : null) ??
    failureText(load.lastError);
  return (
    <form className="q-settings__stack" onSubmit={submit} noValidate aria-label="Custom CSS">
      <TextArea
        label="Custom CSS"
        value={value}
        onChange={change}
        rows={10}
        spellCheck={false}
        className="q-settings__css"
        hint="Up to 16 KB, applied on top of the theme. Images: only your own uploads. No @import, no scripts."
        error={error}
      />
      {check.state === 'ok' && !error && (
        <p className="q-settings__muted" role="status">
          No problems found.
        </p>
      )}
      {preview && (
        <figure className="q-settings__css-preview">
          <iframe src={preview} title="Preview of your blog with this CSS" loading="lazy" />
          <figcaption className="q-settings__muted">Your home page with the CSS above, before it is saved.</figcaption>
        </figure>
      )}
      <div className="q-settings__row">
        <SaveButton type="submit" action={save} disabled={load.lastData === undefined && !load.lastError} />
        <ButtonLink href={blog.url} newTab>
          View blog
        </ButtonLink>
      </div>
    </form>
  );
}
