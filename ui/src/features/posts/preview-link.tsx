import { useEffect, useState } from 'react';
import { Button } from '../../components';
import { errorMessage } from '../../lib/error-message';
import { createPreviewLink, fetchPreviewLink, revokePreviewLink, type PreviewLink } from './api';
import { formatPublished } from './post-card';

export interface PreviewLinkControlProps {
  blogId: number;
  shortId: string;
}

/**
 * 'Preview link' for a saved draft or scheduled post: a secret address where anyone can read it
 * before it is public (not indexed, not listed). The address shows once, right after it is
 * created (the server keeps only a hash); 'Copy link' puts it on the clipboard; 'Revoke link'
 * makes it a 404. A new link replaces the old one.
 */
export function PreviewLinkControl({ blogId, shortId }: PreviewLinkControlProps) {
  const [link, setLink] = useState<PreviewLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchPreviewLink(blogId, shortId, controller.signal).then(setLink, (err: unknown) => {
      if (!controller.signal.aborted) console.error('quire: loading the preview link failed', err);
    });
    return () => controller.abort();
  }, [blogId, shortId]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setCopied(false);
    try {
      await work();
    } catch (err) {
      console.error('quire: the preview link call failed', err);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const create = () => run(async () => setLink(await createPreviewLink(blogId, shortId)));
  const revoke = () =>
    run(async () => {
      await revokePreviewLink(blogId, shortId);
      setLink(null);
    });
  const copy = async () => {
    if (!link?.url) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch (err) {
      console.error('quire: copying the preview link failed', err);
      setError('Copying failed; select the link and copy it yourself.');
    }
  };

  return (
    <section className="q-preview-link" aria-label="Preview link">
      <h2 className="q-preview-link__title">Preview link</h2>
      {link?.url ? (
        <>
          <p className="q-preview-link__text">Anyone with this link can read the post before it is public.</p>
          <input
            className="q-input q-preview-link__url"
            readOnly
            aria-label="Preview link address"
            value={link.url}
            onFocus={(event) => event.target.select()}
          />
        </>
      ) : link ? (
        <p className="q-preview-link__text">
          A preview link was created on {formatPublished(link.createdAt)}. Its address is shown only once: create a new
          link to copy one again.
        </p>
      ) : (
        <p className="q-preview-link__text">Share this post before it is public with a secret link.</p>
      )}
      <div className="q-preview-link__actions">
        {link?.url && (
          <Button variant="secondary" onClick={() => void copy()} disabled={busy}>
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        )}
        <Button variant="secondary" onClick={() => void create()} loading={busy && !link}>
          {link ? 'New link' : 'Create preview link'}
        </Button>
        {link && (
          <Button variant="danger" onClick={() => void revoke()} disabled={busy}>
            Revoke link
          </Button>
        )}
      </div>
      {error && (
        <p className="q-preview-link__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
