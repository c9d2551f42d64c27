import { useEffect, useRef, useState } from 'react';
import { Button, Panel, Spinner } from '../../components';
import { useLoad } from '../../lib/use-load';
import { deleteExport, fetchExports, startExport, type BlogExport, type ExportFormat } from './api';
import { failureText } from './use-save-action';

/** How often the list is loaded again while an export is under way. */
export const EXPORT_POLL_MS = 1000;

/** The three exports the panel offers, with what each is for. */
const FORMATS: { format: ExportFormat; name: string; description: string }[] = [
  {
    format: 'archive',
    name: 'Quire archive',
    description: 'Everything, posts, pages, images and settings, in one file that any Quire can import.',
  },
  {
    format: 'markdown',
    name: 'Markdown',
    description: 'Posts and pages as Markdown files with front matter, for Hugo, Zola or Jekyll.',
  },
  {
    format: 'site',
    name: 'Static site',
    description: 'Your public pages as files that open from disk or go on any static host.',
  },
];

const nameOf = (format: ExportFormat) => FORMATS.find((f) => f.format === format)?.name ?? format;

/** Bytes in a short form: 812 B, 4.2 KB, 13.0 MB. */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A time as the owner's browser shows dates and times. */
function localTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The 'Import and export' panel: the three exports, each with a button and a line saying what it
 * is for, and the exports asked for, newest first: live progress while one runs (the list is
 * loaded again every EXPORT_POLL_MS until none is under way), a Download link with the size and
 * how long it stays, or the reason it failed. The Import section goes below the Export one.
 */
export function ImportExportPanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchExports(blogId, signal), [blogId]);
  const exports = load.lastData;
  const [starting, setStarting] = useState<ExportFormat | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const mounted = useRef(true);
  const underWay = exports?.some((e) => e.state === 'queued' || e.state === 'running') ?? false;
  const { reload } = load;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!underWay || load.status === 'loading') return undefined;
    const timer = setTimeout(() => void reload(), EXPORT_POLL_MS);
    return () => clearTimeout(timer);
  }, [underWay, load.status, exports, reload]);

  const start = async (format: ExportFormat) => {
    if (starting) return;
    setStarting(format);
    setFailure(null);
    try {
      await startExport(blogId, format);
    } catch (error) {
      if (mounted.current) setFailure(error);
    }
    await reload();
    if (mounted.current) setStarting(null);
  };

  const remove = async (entry: BlogExport) => {
    setDeleting(entry.id);
    setFailure(null);
    try {
      await deleteExport(blogId, entry.id);
    } catch (error) {
      if (mounted.current) setFailure(error);
    }
    await reload();
    if (mounted.current) setDeleting(null);
  };

  const message = failureText(failure) || failureText(load.lastError);

  return (
    <Panel title="Import and export">
      <section aria-labelledby="q-export-title" className="q-settings__stack">
        <div>
          <h3 className="q-settings__subtitle" id="q-export-title">
            Export
          </h3>
          <p className="q-settings__muted">Take your blog with you. Each file is kept for a day.</p>
        </div>
        <ul className="q-settings__list">
          {FORMATS.map(({ format, name, description }) => (
            <li key={format} className="q-settings__item">
              <div className="q-settings__item-text">
                <strong>{name}</strong>
                <span className="q-settings__muted">{description}</span>
              </div>
              <Button
                variant="secondary"
                onClick={() => void start(format)}
                loading={starting === format}
                disabled={starting !== null || underWay}
                aria-label={`Export ${name}`}
              >
                Export
              </Button>
            </li>
          ))}
        </ul>
        {message && (
          <p className="q-settings__error" role="alert">
            {message}
          </p>
        )}
        {!exports && !load.lastError && <Spinner label="Loading exports" />}
        {exports && exports.length > 0 && (
          <ul className="q-settings__list" aria-label="Your exports">
            {exports.map((entry) => (
              <ExportRow key={entry.id} entry={entry} deleting={deleting === entry.id} onDelete={() => void remove(entry)} />
            ))}
          </ul>
        )}
      </section>
      {/* The Import section goes here: the same job list, fed by the import calls. */}
    </Panel>
  );
}

/** One export: its progress, its download, or why it failed. */
function ExportRow({ entry, deleting, onDelete }: { entry: BlogExport; deleting: boolean; onDelete: () => void }) {
  const name = nameOf(entry.format);
  const { done, total } = entry.progress;
  return (
    <li className="q-settings__item">
      <div className="q-settings__item-text">
        <strong>{name}</strong>
        {entry.state === 'queued' && <span className="q-settings__muted">Waiting to start…</span>}
        {entry.state === 'running' && (
          <>
            <progress className="q-export__progress" value={done} max={total || 1} aria-label={`${name} export progress`} />
            <span className="q-settings__muted">{total > 0 ? `${done} of ${total} written` : 'Starting…'}</span>
          </>
        )}
        {entry.state === 'done' && entry.downloadUrl && (
          <span>
            <a href={entry.downloadUrl} download={entry.fileName}>
              Download {entry.fileName}
            </a>{' '}
            <span className="q-settings__muted">
              ({humanSize(entry.size ?? 0)}
              {entry.expiresAt ? `, available until ${localTime(entry.expiresAt)}` : ''})
            </span>
          </span>
        )}
        {entry.state === 'failed' && (
          <span className="q-settings__error" role="alert">
            {entry.error ?? 'The export failed.'}
          </span>
        )}
      </div>
      {(entry.state === 'done' || entry.state === 'failed') && (
        <Button variant="secondary" onClick={onDelete} loading={deleting} aria-label={`Delete the ${name} export`}>
          Delete
        </Button>
      )}
    </li>
  );
}
