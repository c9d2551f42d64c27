import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, FileInput, Spinner, TextInput } from '../../components';
import { ApiError } from '../../lib/api';
import { localTime } from '../../lib/local-time';
import { useLoad } from '../../lib/use-load';
import { failureText } from '../../lib/use-save-action';
import { refreshBlog } from '../blogs';
import {
  deleteImport,
  fetchImport,
  fetchImports,
  MAX_IMPORT_BYTES,
  startImport,
  type BlogImport,
  type ImportFormat,
} from './api';
import { ImportReportView } from './import-report';
import { count, counted, humanSize, isUnderWay, useMounted, type JobSectionProps } from './jobs';

/** How often an import under way is asked how far it got. */
export const IMPORT_POLL_MS = 1000;

/** Asked before an import under way is stopped. */
export const STOP_IMPORT_QUESTION = 'Stop this import? What it has imported so far stays.';

/** What each format the server recognized is called. */
const FORMAT_NAMES: Record<ImportFormat, string> = {
  wordpress: 'WordPress',
  ghost: 'Ghost',
  writefreely: 'WriteFreely',
  bearblog: 'Bear Blog',
  markdown: 'Markdown files',
  quire: 'Quire archive',
};

/** Why an upload did not start, by the field it concerns. */
interface UploadProblem {
  file: string | null;
  siteUrl: string | null;
  /** Not about either field: another job under way, the session, the connection. */
  other: string | null;
}

const NO_PROBLEM: UploadProblem = { file: null, siteUrl: null, other: null };

/** What can be told before sending anything: no file, an empty or too large one, a bad address. */
function checkUpload(file: File | null, siteUrl: string): UploadProblem | null {
  if (!file) return { ...NO_PROBLEM, file: 'Choose the export file to import.' };
  if (file.size === 0) return { ...NO_PROBLEM, file: 'This file is empty.' };
  if (file.size > MAX_IMPORT_BYTES) {
    return { ...NO_PROBLEM, file: `This file is ${humanSize(file.size)}: Quire imports files of up to 512 MiB.` };
  }
  if (siteUrl && !/^https?:\/\/[^\s/]/i.test(siteUrl))
    return { ...NO_PROBLEM, siteUrl: 'Should be an http or https address' };
  return null;
}

/** The server's answer to an upload, each message placed by the field it names. */
function problemOf(error: unknown): UploadProblem {
  if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0)
    return { ...NO_PROBLEM, other: failureText(error) };
  const about = (...keys: string[]) => keys.flatMap((key) => error.messagesFor(key)).join(' ') || null;
  const rest = Object.keys(error.fields).filter((key) => !['file', 'body', 'siteUrl'].includes(key));
  return { file: about('file', 'body'), siteUrl: about('siteUrl'), other: about(...rest) };
}

/**
 * An import started here, or seen under way, is done. It can change the blog's name, theme, icon,
 * addons and time zone: the blog is refreshed, and the Blog panel and the owner area follow.
 */
function afterImport(): void {
  refreshBlog().catch((error: unknown) => console.warn('quire: reloading the blog after an import failed', error));
}

/**
 * The Import section: what Quire imports, the form (the export file, the old site's address,
 * Import), and the blog's imports, newest first. The file is uploaded as it is ('Uploading…'),
 * then the import under way is asked how far it got every IMPORT_POLL_MS ('Importing… 340 of
 * 1,210 items') until it ends with its report or the reason it failed. An import started here
 * opens its report when it is done; the others open theirs on request.
 */
export function ImportSection({ blogId, otherUnderWay, onUnderWay }: JobSectionProps) {
  const load = useLoad((signal) => fetchImports(blogId, signal), [blogId]);
  const imports = load.lastData;
  const { reload, setData, lastError } = load;
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [siteUrl, setSiteUrl] = useState('');
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<UploadProblem>(NO_PROBLEM);
  const [opened, setOpened] = useState<ReadonlySet<number>>(() => new Set());
  const [removing, setRemoving] = useState<number | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const mounted = useMounted();
  /** Imports started here or seen under way, until they end. */
  const following = useRef(new Set<number>());
  const active = imports?.find(isUnderWay);
  const underWay = uploading || active !== undefined;

  useEffect(() => onUnderWay(underWay), [onUnderWay, underWay]);

  useEffect(() => {
    let done = false;
    for (const entry of imports ?? []) {
      if (isUnderWay(entry)) following.current.add(entry.id);
      else if (following.current.delete(entry.id)) done ||= entry.state === 'done';
    }
    if (done) afterImport();
  }, [imports]);

  // Each answer about the import under way is a new object, so this asks again a second after
  // each one, until it is no longer under way. A failed question (the import was forgotten
  // elsewhere, the connection dropped) loads the whole list again, and that answer asks again.
  useEffect(() => {
    if (!active) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchImport(blogId, active.id, controller.signal).then(
        (fresh) => setData((list) => list.map((entry) => (entry.id === fresh.id ? fresh : entry))),
        () => {
          if (!controller.signal.aborted) void reload();
        },
      );
    }, IMPORT_POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [blogId, active, lastError, setData, reload]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (underWay || otherUnderWay) return;
    const url = siteUrl.trim();
    const refused = checkUpload(file, url);
    if (refused || !file) {
      setProblem(refused ?? NO_PROBLEM);
      return;
    }
    setProblem(NO_PROBLEM);
    setFailure(null);
    setUploading(true);
    try {
      const started = await startImport(blogId, file, url);
      following.current.add(started.id);
      if (mounted.current) {
        setOpened((ids) => new Set(ids).add(started.id));
        setFile(null);
        setSiteUrl('');
        if (fileInput.current) fileInput.current.value = '';
      }
    } catch (error) {
      if (mounted.current) setProblem(problemOf(error));
    }
    await reload();
    if (mounted.current) setUploading(false);
  };

  const remove = async (entry: BlogImport) => {
    if (isUnderWay(entry) && !window.confirm(STOP_IMPORT_QUESTION)) return;
    setRemoving(entry.id);
    setFailure(null);
    try {
      await deleteImport(blogId, entry.id);
    } catch (error) {
      if (mounted.current) setFailure(error);
    }
    await reload();
    if (mounted.current) setRemoving(null);
  };

  const toggle = (id: number) =>
    setOpened((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const message = failureText(failure) || failureText(lastError);

  return (
    <section aria-labelledby="q-import-title" className="q-settings__stack">
      <div>
        <h3 className="q-settings__subtitle" id="q-import-title">
          Import
        </h3>
        <p className="q-settings__muted">
          Bring in posts and pages from WordPress, Ghost, WriteFreely, Bear Blog, a zip of Markdown files from Hugo,
          Jekyll, Zola or Obsidian, or a Quire archive.
        </p>
      </div>
      <form className="q-settings__stack q-import__form" onSubmit={(event) => void submit(event)} noValidate>
        <FileInput
          ref={fileInput}
          label="Export file"
          hint="Up to 512 MiB."
          error={problem.file}
          disabled={uploading}
          onChange={(chosen) => {
            setFile(chosen);
            setProblem((current) => ({ ...current, file: null, other: null }));
          }}
        />
        <TextInput
          label="Old site address (optional)"
          type="url"
          placeholder="https://example.com"
          value={siteUrl}
          disabled={uploading}
          onChange={(value) => {
            setSiteUrl(value);
            setProblem((current) => ({ ...current, siteUrl: null, other: null }));
          }}
          hint="Ghost exports don't say where the site was. Give its address so your images can be fetched from there."
          error={problem.siteUrl}
        />
        <div className="q-import__submit">
          <Button type="submit" loading={uploading} disabled={underWay || otherUnderWay}>
            Import
          </Button>
          {uploading && (
            <span className="q-settings__muted" role="status">
              Uploading…
            </span>
          )}
          {!uploading && active && (
            <span className="q-settings__muted">Wait for this import to finish before starting another.</span>
          )}
          {!uploading && !active && otherUnderWay && (
            <span className="q-settings__muted">Wait for the export to finish before importing.</span>
          )}
        </div>
        {problem.other && (
          <p className="q-settings__error" role="alert">
            {problem.other}
          </p>
        )}
      </form>
      {message && (
        <p className="q-settings__error" role="alert">
          {message}
        </p>
      )}
      {!imports && !lastError && <Spinner label="Loading imports" />}
      {imports && imports.length > 0 && (
        <>
          <p className="q-settings__muted">
            Each import is listed for a day. Forgetting one keeps the posts it brought in.
          </p>
          <ul className="q-settings__list" aria-label="Your imports">
            {imports.map((entry) => (
              <ImportRow
                key={entry.id}
                entry={entry}
                open={opened.has(entry.id)}
                onToggle={() => toggle(entry.id)}
                removing={removing === entry.id}
                onRemove={() => void remove(entry)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

interface ImportRowProps {
  entry: BlogImport;
  /** Its report is shown (once it is done). */
  open: boolean;
  onToggle: () => void;
  removing: boolean;
  onRemove: () => void;
}

/** One import: its file, format and date, then its progress, a summary and its report, or why it failed. */
function ImportRow({ entry, open, onToggle, removing, onRemove }: ImportRowProps) {
  const { done, total } = entry.progress;
  const { report, fileName } = entry;
  const reportId = `q-import-report-${entry.id}`;
  const format = FORMAT_NAMES[entry.format] ?? entry.format;
  return (
    <li className="q-settings__item q-import">
      <div className="q-import__head">
        <div className="q-settings__item-text">
          <strong>{fileName}</strong>
          <span className="q-settings__muted">
            {format}, {localTime(entry.createdAt)}
          </span>
          {entry.state === 'queued' && <span className="q-settings__muted">Waiting to start…</span>}
          {entry.state === 'running' && total > 0 && (
            <progress className="q-export__progress" value={done} max={total} aria-label={`Import of ${fileName}`} />
          )}
          {entry.state === 'running' && (
            <span className="q-settings__muted">
              {total > 0 ? `Importing… ${count(done)} of ${counted(total, 'item')}` : 'Importing…'}
            </span>
          )}
          {entry.state === 'done' && report && (
            <span>
              Imported {counted(report.posts, 'post')}, {counted(report.pages, 'page')} and{' '}
              {counted(report.images, 'image')}
              {report.skipped > 0 ? `; ${count(report.skipped)} skipped` : ''}.
            </span>
          )}
          {entry.state === 'failed' && (
            <span className="q-settings__error" role="alert">
              {entry.error ?? 'The import failed.'}
            </span>
          )}
        </div>
        <div className="q-import__actions">
          {entry.state === 'done' && report && (
            <Button variant="secondary" aria-expanded={open} aria-controls={reportId} onClick={onToggle}>
              {open ? 'Hide report' : 'Report'}
            </Button>
          )}
          <Button
            variant="secondary"
            onClick={onRemove}
            loading={removing}
            aria-label={`${isUnderWay(entry) ? 'Stop' : 'Forget'} the import of ${fileName}`}
          >
            {isUnderWay(entry) ? 'Stop' : 'Forget'}
          </Button>
        </div>
      </div>
      {entry.state === 'done' && report && open && (
        <ImportReportView id={reportId} fileName={fileName} report={report} />
      )}
    </li>
  );
}
