import { useState } from 'react';
import { Button, Panel, Spinner } from '../../components';
import { errorMessage } from '../../lib/error-message';
import { useLoad } from '../../lib/use-load';
import { fetchPages, reorderPages, type BlogPage } from './tags';

/**
 * The blog's pages in the order its navigation lists them, each with 'up' and 'down' buttons
 * (docs/api.md, 'Pages'). Hidden while the blog has no page.
 */
export function PagesPanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchPages(blogId, signal), [blogId]);
  const [pages, setPages] = useState<BlogPage[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = pages ?? (load.status === 'ready' ? load.data : null);

  if (load.status === 'loading' && !shown) return <Spinner label="Loading pages" />;
  if (!shown || shown.length === 0) return null;

  const move = async (index: number, direction: -1 | 1) => {
    const next = [...shown];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + direction, 0, moved);
    setSaving(true);
    setError(null);
    try {
      setPages(
        await reorderPages(
          blogId,
          next.map((p) => p.shortId),
        ),
      );
    } catch (failure) {
      console.error('quire: reordering the pages failed', failure);
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Panel title="Pages in the blog's navigation" className="q-pages-panel">
      <ol className="q-pages-panel__list" aria-label="Pages" aria-busy={saving || undefined}>
        {shown.map((page, index) => (
          <li key={page.shortId} className="q-pages-panel__item">
            <span className="q-pages-panel__title">
              {page.title} <span className="q-pages-panel__path">{page.path}</span>
              {!page.published && <span className="q-post-card__draft"> · Draft</span>}
            </span>
            <Button
              variant="secondary"
              aria-label={`Move ${page.title} up`}
              disabled={saving || index === 0}
              onClick={() => void move(index, -1)}
            >
              ↑
            </Button>
            <Button
              variant="secondary"
              aria-label={`Move ${page.title} down`}
              disabled={saving || index === shown.length - 1}
              onClick={() => void move(index, 1)}
            >
              ↓
            </Button>
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error}</p>}
    </Panel>
  );
}
