// The calls behind the settings screen (docs/api.md, 'The blog', 'Addons', 'Themes, favicons
// and time zones'): rename, theme, time zone, tab icon, addons, connecting a social account and
// deleting the account, taking the blog away or bringing one in (exports and imports), and the
// blog's custom domain ('Custom domains'), and its Fediverse settings ('The fediverse').
import { api, paging, type Paging } from '../../lib/api';
import type { Blog, Favicon, SocialAccount, Theme } from '../blogs';

/** Icons per page of the picker: several screens of the grid per call. */
export const FAVICONS_PAGE_SIZE = 100;

/** An addon of the public blog; installing one takes no settings (docs/api.md, 'Addons'). */
export interface Addon {
  id: number;
  slug: string;
  name: string;
  description: string;
}

/** One page of the icon picker and where it stands in the whole list. */
export interface FaviconPage {
  favicons: Favicon[];
  paging: Paging;
}

const blogPath = (blogId: number) => `/api/my/blogs/${blogId}`;

/** Renames the blog; a 422 carries the message under `name`. */
export async function renameBlog(blogId: number, name: string): Promise<Blog> {
  const { data } = await api.put<{ blog: Blog }>(blogPath(blogId), { name });
  return data.blog;
}

/** Every theme a blog can use. */
export async function fetchThemes(signal?: AbortSignal): Promise<Theme[]> {
  const { data } = await api.get<{ themes: Theme[] }>('/api/themes', signal ? { signal } : {});
  return data.themes;
}

/** Switches the public blog to another theme; a 422 carries the message under `themeId`. */
export async function setTheme(blogId: number, themeId: number): Promise<Blog> {
  const { data } = await api.put<{ blog: Blog }>(`${blogPath(blogId)}/theme`, { themeId });
  return data.blog;
}

/** Every IANA time zone the server offers, e.g. `Europe/Paris`, in alphabetical order. */
export async function fetchTimeZones(signal?: AbortSignal): Promise<string[]> {
  const { data } = await api.get<{ timeZones: string[] }>('/api/time_zones', signal ? { signal } : {});
  return data.timeZones;
}

/** Shows the public blog's dates in `timeZone`; a 422 carries the message under `timeZone`. */
export async function setTimeZone(blogId: number, timeZone: string): Promise<Blog> {
  const { data } = await api.put<{ blog: Blog }>(`${blogPath(blogId)}/time_zone`, { timeZone });
  return data.blog;
}

/** One page of the icons (pages start at 1); with a `search`, of those it finds by name or keyword. */
export async function fetchFavicons(page: number, signal?: AbortSignal, search = ''): Promise<FaviconPage> {
  const { data, headers } = await api.get<{ favicons: Favicon[] }>('/api/favicons', {
    query: { page, pageSize: FAVICONS_PAGE_SIZE, ...(search ? { query: search } : {}) },
    ...(signal ? { signal } : {}),
  });
  return { favicons: data.favicons, paging: paging(headers) };
}

/** Makes `faviconId` the blog's tab icon. */
export async function setFavicon(blogId: number, faviconId: number): Promise<Blog> {
  const { data } = await api.put<{ blog: Blog }>(`${blogPath(blogId)}/favicon`, { faviconId });
  return data.blog;
}

/** The addons installed on the blog, or the ones it can still install. */
export async function fetchAddons(
  blogId: number,
  which: 'installed' | 'uninstalled',
  signal?: AbortSignal,
): Promise<Addon[]> {
  const { data } = await api.get<{ addons: Addon[] }>(`${blogPath(blogId)}/addons/${which}`, signal ? { signal } : {});
  return data.addons;
}

/** Installs an addon (installing it twice changes nothing). */
export async function installAddon(blogId: number, addonId: number): Promise<void> {
  await api.post(`${blogPath(blogId)}/addons/${addonId}/installation`, {});
}

/** Uninstalls an addon (uninstalling it twice changes nothing). */
export async function uninstallAddon(blogId: number, addonId: number): Promise<void> {
  await api.delete(`${blogPath(blogId)}/addons/${addonId}/installation`);
}

/** Connects the provider account a popup's ID token names to the signed-in user. */
export async function connectSocialAccount(idToken: string): Promise<SocialAccount> {
  const { data } = await api.post<{ socialAccount: SocialAccount }>('/api/my/social_accounts', { idToken });
  return data.socialAccount;
}

/**
 * Deletes the account: the blog, its posts and images, the user and their sessions. The server
 * clears the session and blog_id cookies; the subdomain is never handed out again.
 */
export async function deleteAccount(blogId: number): Promise<void> {
  await api.delete(blogPath(blogId));
}

/** What an export makes (docs/api.md, 'Exports'). */
export type ExportFormat = 'archive' | 'markdown' | 'site';

/** A background job's state: waiting, under way, finished, or failed with a message. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** An export of the blog, as the server lists it. */
export interface BlogExport {
  id: number;
  format: ExportFormat;
  state: JobState;
  /** Posts, pages and images written so far, of `total` (0 while unknown). */
  progress: { done: number; total: number };
  /** The file's size in bytes, once done. */
  size: number | null;
  /** The name the download is offered under, e.g. `alice-20261122.quire.zip`. */
  fileName: string;
  /** Where to download it, once done. */
  downloadUrl: string | null;
  /** Why it failed. */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** When the file is removed (a day after it is done). */
  expiresAt: string | null;
}

/** The blog's exports, newest first. */
export async function fetchExports(blogId: number, signal?: AbortSignal): Promise<BlogExport[]> {
  const { data } = await api.get<{ exports: BlogExport[] }>(`${blogPath(blogId)}/exports`, signal ? { signal } : {});
  return data.exports;
}

/** Starts an export; a 422 says why not (another one under way, an unknown format). */
export async function startExport(blogId: number, format: ExportFormat): Promise<BlogExport> {
  const { data } = await api.post<{ export: BlogExport }>(`${blogPath(blogId)}/exports`, { format });
  return data.export;
}

/** Deletes an export and its file (a running one stops). */
export async function deleteExport(blogId: number, exportId: number): Promise<void> {
  await api.delete(`${blogPath(blogId)}/exports/${exportId}`);
}

/** What an import read, found from the file's content (docs/api.md, 'Imports'). */
export type ImportFormat = 'wordpress' | 'ghost' | 'writefreely' | 'bearblog' | 'markdown' | 'quire';

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

/** An import into the blog, as the server lists it. */
export interface BlogImport {
  id: number;
  format: ImportFormat;
  /** The name the file was uploaded under. */
  fileName: string;
  state: JobState;
  /** Posts and pages handled so far, of `total` (0 while unknown). */
  progress: { done: number; total: number };
  /** Why it failed. */
  error: string | null;
  /** Once done. */
  report: ImportReport | null;
  createdAt: string;
  finishedAt: string | null;
  /** When the import and its report are forgotten (a day after it ends). */
  expiresAt: string | null;
}

/** The blog's imports, newest first. */
export async function fetchImports(blogId: number, signal?: AbortSignal): Promise<BlogImport[]> {
  const { data } = await api.get<{ imports: BlogImport[] }>(`${blogPath(blogId)}/imports`, signal ? { signal } : {});
  return data.imports;
}

/** One import, for following its progress. */
export async function fetchImport(blogId: number, importId: number, signal?: AbortSignal): Promise<BlogImport> {
  const { data } = await api.get<{ import: BlogImport }>(
    `${blogPath(blogId)}/imports/${importId}`,
    signal ? { signal } : {},
  );
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
  const { data } = await api.post<{ import: BlogImport }>(`${blogPath(blogId)}/imports?${query}`, file);
  return data.import;
}

/** Forgets an import and its report; a running one stops after its batch (what it wrote stays). */
export async function deleteImport(blogId: number, importId: number): Promise<void> {
  await api.delete(`${blogPath(blogId)}/imports/${importId}`);
}

/** Where a custom domain stands (docs/api.md, 'Custom domains'). */
export type DomainState = 'waiting_for_dns' | 'verified' | 'error';

/** A DNS record the owner creates at their DNS provider. */
export interface DomainRecord {
  /** `TXT`, `CNAME` (or `A`/`AAAA`). */
  type: string;
  name: string;
  value: string;
}

/** The certificate Quire gets for the domain when it serves HTTPS itself. */
export type DomainCertificate =
  | { state: 'not_managed' }
  | { state: 'pending' }
  | { state: 'issued'; notAfter: string }
  | { state: 'error'; error: string; retryAt: string };

/** The blog's own domain name, e.g. `blog.example.org`, and what it takes to use it. */
export interface CustomDomain {
  /** The A-label form: lowercase ASCII, no trailing dot (`xn--bcher-kva.example`). */
  name: string;
  /** The Unicode form (`bücher.example`); equal to `name` for ASCII names. */
  displayName: string;
  state: DomainState;
  /** Why the last check failed (state `error`), or a hint while waiting. */
  error: string | null;
  /** The TXT record that proves the name is the owner's, and the CNAME that sends readers here. */
  records: DomainRecord[];
  checkedAt: string | null;
  verifiedAt: string | null;
  nextCheckAt: string | null;
  certificate: DomainCertificate;
}

const domainPath = (blogId: number) => `${blogPath(blogId)}/domain`;

/** The blog's custom domain, or null when it has none. */
export async function fetchDomain(blogId: number, signal?: AbortSignal): Promise<CustomDomain | null> {
  const { data } = await api.get<{ domain: CustomDomain | null }>(domainPath(blogId), signal ? { signal } : {});
  return data.domain;
}

/** Sets (or replaces) the blog's custom domain; a 422 carries the message under `name`. */
export async function setDomain(blogId: number, name: string): Promise<CustomDomain> {
  const { data } = await api.put<{ domain: CustomDomain }>(domainPath(blogId), { name });
  return data.domain;
}

/** Removes the custom domain: the blog is served at its subdomain again. */
export async function removeDomain(blogId: number): Promise<void> {
  await api.delete(domainPath(blogId));
}

/** Checks the DNS records now; a 429 carries 'try again in N seconds' under `check`. */
export async function checkDomain(blogId: number): Promise<CustomDomain> {
  const { data } = await api.post<{ domain: CustomDomain }>(`${domainPath(blogId)}/check`, {});
  return data.domain;
}

/** One follower from the fediverse (docs/api.md, 'The fediverse'). */
export interface Follower {
  id: number;
  /** `@bob@peer.example`. */
  handle: string;
  /** Their actor's address, which opens their profile. */
  actorUrl: string;
  /** Accepted, or waiting for the owner's approval. */
  state: 'accepted' | 'pending';
  since: string;
}

/** Deliveries to one server that failed for about two days and were given up. */
export interface GivenUpDeliveries {
  inboxHost: string;
  count: number;
  lastError: string | null;
}

/** The blog's Fediverse settings. */
export interface Fediverse {
  /** What to share, e.g. `@alice@example.com`. */
  handle: string;
  actorUrl: string;
  approveFollowers: boolean;
  /** Accepted followers. */
  followerCount: number;
  /** Every follower, pending ones too, oldest first. */
  followers: Follower[];
  blockedDomains: string[];
  givenUp: GivenUpDeliveries[];
}

const fediversePath = (blogId: number) => `${blogPath(blogId)}/fediverse`;

/** The blog's Fediverse settings. */
export async function fetchFediverse(blogId: number, signal?: AbortSignal): Promise<Fediverse> {
  const { data } = await api.get<{ fediverse: Fediverse }>(fediversePath(blogId), signal ? { signal } : {});
  return data.fediverse;
}

/** Turns the approval of new followers on or off. */
export async function setApproveFollowers(blogId: number, approveFollowers: boolean): Promise<Fediverse> {
  const { data } = await api.put<{ fediverse: Fediverse }>(fediversePath(blogId), { approveFollowers });
  return data.fediverse;
}

/** Accepts a pending follower. */
export async function approveFollower(blogId: number, followerId: number): Promise<Fediverse> {
  const { data } = await api.post<{ fediverse: Fediverse }>(
    `${fediversePath(blogId)}/followers/${followerId}/approve`,
    {},
  );
  return data.fediverse;
}

/** Refuses a pending follower or removes an accepted one. */
export async function removeFollower(blogId: number, followerId: number): Promise<Fediverse> {
  const { data } = await api.delete<{ fediverse: Fediverse }>(`${fediversePath(blogId)}/followers/${followerId}`);
  return data.fediverse;
}

/** Blocks a domain for the blog; a 422 carries the message under `domain`. */
export async function blockDomain(blogId: number, domain: string): Promise<Fediverse> {
  const { data } = await api.post<{ fediverse: Fediverse }>(`${fediversePath(blogId)}/blocked_domains`, { domain });
  return data.fediverse;
}

/** Unblocks a domain for the blog. */
export async function unblockDomain(blogId: number, domain: string): Promise<Fediverse> {
  const path = `${fediversePath(blogId)}/blocked_domains/${encodeURIComponent(domain)}`;
  const { data } = await api.delete<{ fediverse: Fediverse }>(path);
  return data.fediverse;
}
