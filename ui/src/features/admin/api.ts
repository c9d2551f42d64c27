// The calls behind the Admin screen (docs/api.md, 'Admin'): the review queue, the search over all
// blogs, the actions on a blog, the abuse reports and the record of admin actions. Every call is for the instance's
// admins only (`quire serve --admin`); anyone else gets a 403.
import type {
  AdminAction,
  AdminActions,
  AdminBlog,
  AdminBlogs,
  AdminDone,
  AdminReports,
  OneAdminBlog,
  OneReport,
  Report,
} from '../../api-types/admin';
import { api, paging, type Paging } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { AdminAction, AdminBlog, LinkHost, Report } from '../../api-types/admin';

/** Blogs or actions on one page of a list. */
export const ADMIN_PAGE_SIZE = 10;

/** The state changes an admin makes (the Delete action is `deleteBlog`). */
export type Moderation = 'approve' | 'silence' | 'suspend' | 'unsuspend';

/** How the review queue is ordered. */
export type QueueOrder = 'newest' | 'risk';

/** One page of blogs, and where it is in the whole. */
export interface BlogsPage {
  blogs: AdminBlog[];
  paging: Paging;
}

/** One page of the record of admin actions. */
export interface ActionsPage {
  actions: AdminAction[];
  paging: Paging;
}

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** One page of the review queue: blogs waiting for review and approved ones flagged back. */
export async function fetchQueue(order: QueueOrder, page: number, signal?: AbortSignal): Promise<BlogsPage> {
  const { data, headers } = await api.get<AdminBlogs>('/api/admin/queue', {
    query: { order, page, pageSize: ADMIN_PAGE_SIZE },
    ...withSignal(signal),
  });
  return { blogs: data.blogs, paging: paging(headers) };
}

/** One page of the blogs whose subdomain, name or owner email contains `text` (all blogs when empty). */
export async function searchBlogs(text: string, state: string, page: number, signal?: AbortSignal): Promise<BlogsPage> {
  const { data, headers } = await api.get<AdminBlogs>('/api/admin/blogs', {
    query: { q: text, state: state || null, page, pageSize: ADMIN_PAGE_SIZE },
    ...withSignal(signal),
  });
  return { blogs: data.blogs, paging: paging(headers) };
}

/** Approves, silences, suspends or unsuspends the blog; `reason` is shown to its owner. */
export async function moderateBlog(subdomain: string, action: Moderation, reason: string): Promise<AdminBlog> {
  const { data } = await api.post<OneAdminBlog>(`/api/admin/blogs/${encodeURIComponent(subdomain)}/${action}`, {
    reason,
  });
  return data.blog;
}

/** Deletes the blog and its owner's account; answers what was done, in one line. */
export async function deleteBlog(subdomain: string): Promise<string> {
  const { data } = await api.delete<AdminDone>(`/api/admin/blogs/${encodeURIComponent(subdomain)}`);
  return data.done;
}

/** One page of the record of admin actions, newest first. */
export async function fetchActions(page: number, signal?: AbortSignal): Promise<ActionsPage> {
  const { data, headers } = await api.get<AdminActions>('/api/admin/actions', {
    query: { page, pageSize: ADMIN_PAGE_SIZE },
    ...withSignal(signal),
  });
  return { actions: data.actions, paging: paging(headers) };
}

/** The lists of abuse reports: waiting for an admin, or settled one way or the other. */
export type ReportState = 'open' | 'resolved' | 'dismissed';

/** How an admin settles a report. */
export type Settlement = 'resolve' | 'dismiss';

/** One page of abuse reports. */
export interface ReportsPage {
  reports: Report[];
  paging: Paging;
}

/** One page of the abuse reports in `state`, newest first. */
export async function fetchReports(state: ReportState, page: number, signal?: AbortSignal): Promise<ReportsPage> {
  const { data, headers } = await api.get<AdminReports>('/api/admin/reports', {
    query: { state, page, pageSize: ADMIN_PAGE_SIZE },
    ...withSignal(signal),
  });
  return { reports: data.reports, paging: paging(headers) };
}

/** Resolves or dismisses an open report; answers it as it is now. */
export async function settleReport(id: number, how: Settlement): Promise<Report> {
  const { data } = await api.post<OneReport>(`/api/admin/reports/${id}/${how}`, {});
  return data.report;
}
