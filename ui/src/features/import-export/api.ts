// The calls behind the Import and export panel (docs/api.md, 'Exports', 'Imports'): taking the blog
// away or bringing one in, as background jobs the panel follows.
import type { Export, Exports, OneExport } from '../../api-types/exports';
import type { Import, Imports, OneImport } from '../../api-types/imports';
import { api } from '../../lib/api';

const blogPath = (blogId: number) => `/api/my/blogs/${blogId}`;

/** What an export makes (docs/api.md, 'Exports'). */
export type ExportFormat = BlogExport['format'];

/** A background job's state: waiting, under way, finished, or failed with a message. */
export type JobState = BlogExport['state'];

/**
 * An export of the blog, as the server lists it (generated from the server's struct,
 * ui/src/api-types/); the app also takes one without its start time, which it does not show.
 */
export type BlogExport = Omit<Export, 'startedAt'> & Partial<Pick<Export, 'startedAt'>>;

/** The blog's exports, newest first. */
export async function fetchExports(blogId: number, signal?: AbortSignal): Promise<BlogExport[]> {
  const { data } = await api.get<Exports>(`${blogPath(blogId)}/exports`, signal ? { signal } : {});
  return data.exports;
}

/** Starts an export; a 422 says why not (another one under way, an unknown format). */
export async function startExport(blogId: number, format: ExportFormat): Promise<BlogExport> {
  const { data } = await api.post<OneExport>(`${blogPath(blogId)}/exports`, { format });
  return data.export;
}

/** Deletes an export and its file (a running one stops). */
export async function deleteExport(blogId: number, exportId: number): Promise<void> {
  await api.delete(`${blogPath(blogId)}/exports/${exportId}`);
}

/** What an import read, found from the file's content (docs/api.md, 'Imports'). */
export type ImportFormat = Import['format'];

/** The largest file an import takes: 512 MiB. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/** One item an import skipped or changed, and why. */
export interface ImportLine {
  /** The post's or page's title, or 'The export' / 'Blog settings'. */
  item: string;
  message: string;
}

/** What a finished import brought in, and every item it skipped or changed. */
export interface ImportReport {
  posts: number;
  pages: number;
  drafts: number;
  scheduled: number;
  images: number;
  tags: number;
  /** Old addresses that now redirect to the imported posts. */
  redirects: number;
  skipped: number;
  /** At most 5,000; `linesOmitted` counts the rest. */
  lines: ImportLine[];
  linesOmitted: number;
}

/**
 * An import into the blog, as the server lists it (generated from the server's struct,
 * ui/src/api-types/), its report (which the server types only as JSON) an `ImportReport`; the app
 * also takes one without its start time, which it does not show.
 */
export type BlogImport = Omit<Import, 'report' | 'startedAt'> &
  Partial<Pick<Import, 'startedAt'>> & {
    /** Once done. */
    report: ImportReport | null;
  };

/** The server's `{imports}` and `{import}`, with the report typed. */
type ImportsAnswer = Omit<Imports, 'imports'> & { imports: BlogImport[] };
type OneImportAnswer = Omit<OneImport, 'import'> & { import: BlogImport };

/** The blog's imports, newest first. */
export async function fetchImports(blogId: number, signal?: AbortSignal): Promise<BlogImport[]> {
  const { data } = await api.get<ImportsAnswer>(`${blogPath(blogId)}/imports`, signal ? { signal } : {});
  return data.imports;
}

/** One import, for following its progress. */
export async function fetchImport(blogId: number, importId: number, signal?: AbortSignal): Promise<BlogImport> {
  const { data } = await api.get<OneImportAnswer>(`${blogPath(blogId)}/imports/${importId}`, signal ? { signal } : {});
  return data.import;
}

/**
 * Uploads an export file as the request body and starts importing it. A 4xx says why not, under
 * `file`, `siteUrl`, `import` (a job under way) or `body` (too large).
 */
export async function startImport(blogId: number, file: File, siteUrl: string): Promise<BlogImport> {
  // The route names its query parameters in camelCase (docs/api.md 9b.1), so they are written
  // here rather than through the wrapper's snake_cased `query`; a space is %20, never `+`.
  const params: [string, string][] = [
    ['fileName', file.name],
    ...(siteUrl ? [['siteUrl', siteUrl] as [string, string]] : []),
  ];
  const query = params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
  const { data } = await api.post<OneImportAnswer>(`${blogPath(blogId)}/imports?${query}`, file);
  return data.import;
}

/** Forgets an import and its report; a running one stops after its batch (what it wrote stays). */
export async function deleteImport(blogId: number, importId: number): Promise<void> {
  await api.delete(`${blogPath(blogId)}/imports/${importId}`);
}
