import { useEffect, useState } from 'react';
import { Button, Panel, Spinner } from '../../components';
import { localTime } from '../../lib/local-time';
import { useLoad } from '../../lib/use-load';
import { failureText } from '../../lib/use-save-action';
import { deleteExport, fetchExports, startExport, type BlogExport, type ExportFormat } from './api';
import { ImportSection } from './import-section';
import './import-export.css';
import { humanSize, isUnderWay, useMounted, type JobSectionProps } from './jobs';

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

/**
 * The 'Import and export' panel: the Export section, then the Import one. A blog runs one export
 * or import at a time, so while one is starting or under way the other section's buttons wait.
 */
export function ImportExportPanel({ blogId }: { blogId: number }) {
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  return (
    <Panel title="Import and export">
      <div className="q-settings__stack q-import-export">
        <ExportSection blogId={blogId} otherUnderWay={importing} onUnderWay={setExporting} />
        <ImportSection blogId={blogId} otherUnderWay={exporting} onUnderWay={setImporting} />
      </div>
    </Panel>
  );
}

/**
 * The three exports, each with a button and a line saying what it is for, and the exports asked
 * for, newest first: live progress while one runs (the list is loaded again every EXPORT_POLL_MS
 * until none is under way), a Download link with the size and how long it stays, or the reason
 * it failed.
 */
function ExportSection({ blogId, otherUnderWay, onUnderWay }: JobSectionProps) {
  const load = useLoad((signal) => fetchExports(blogId, signal), [blogId]);
  const exports = load.lastData;
  const [starting, setStarting] = useState<ExportFormat | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const mounted = useMounted();
  const underWay = exports?.some(isUnderWay) ?? false;
  const { reload } = load;

  useEffect(() => onUnderWay(underWay || starting !== null), [onUnderWay, underWay, starting]);

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
              disabled={starting !== null || underWay || otherUnderWay}
              aria-label={`Export ${name}`}
            >
              Export
            </Button>
          </li>
        ))}
      </ul>
      {otherUnderWay && <p className="q-settings__muted">Wait for the import to finish before exporting.</p>}
      {message && (
        <p className="q-settings__error" role="alert">
          {message}
        </p>
      )}
      {!exports && !load.lastError && <Spinner label="Loading exports" />}
      {exports && exports.length > 0 && (
        <ul className="q-settings__list" aria-label="Your exports">
          {exports.map((entry) => (
            <ExportRow
              key={entry.id}
              entry={entry}
              deleting={deleting === entry.id}
              onDelete={() => void remove(entry)}
            />
          ))}
        </ul>
      )}
    </section>
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
            <progress
              className="q-export__progress"
              value={done}
              max={total || 1}
              aria-label={`${name} export progress`}
            />
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
