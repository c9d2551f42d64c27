// The calls behind the Subscribers panel (docs/api.md 6.12, 'Email'): the blog's email switches
// and counts, resuming after a pause for bounces, the subscribers a page at a time, removing one,
// the CSV export's address and importing another service's CSV.
import type { EmailAnswer, EmailSettings, ImportAnswer, Subscriber, Subscribers } from '../../api-types/email';
import { api, paging, type Paging } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { EmailSettings, InvalidRow, Subscriber, SubscriberImport } from '../../api-types/email';

const emailPath = (blogId: number) => `/api/my/blogs/${blogId}/email`;
const subscribersPath = (blogId: number) => `/api/my/blogs/${blogId}/subscribers`;

/** The blog's email settings and subscriber counts. */
export async function fetchEmail(blogId: number, signal?: AbortSignal): Promise<EmailSettings> {
  const { data } = await api.get<EmailAnswer>(emailPath(blogId), signal ? { signal } : {});
  return data.email;
}

/** The switches `PUT .../email` takes; each left out stays as it is. */
export type EmailSwitch = 'enabled' | 'replyToOwner' | 'notifyOwner';

/** Turns one switch on or off. */
export async function setEmailSwitch(blogId: number, name: EmailSwitch, on: boolean): Promise<EmailSettings> {
  const { data } = await api.put<EmailAnswer>(emailPath(blogId), { [name]: on });
  return data.email;
}

/** Ends a pause for bounces: the mail waiting goes out again. */
export async function resumeEmail(blogId: number): Promise<EmailSettings> {
  const { data } = await api.post<EmailAnswer>(`${emailPath(blogId)}/resume`, {});
  return data.email;
}

/** Subscribers on one page of the list. */
export const SUBSCRIBERS_PAGE_SIZE = 50;

/** A subscriber's state, or '' for all of them. */
export type StateFilter = '' | Subscriber['state'];

/** Which subscribers to list: those whose address holds `q` (all when empty), in `state`. */
export interface SubscriberQuery {
  q: string;
  state: StateFilter;
  page: number;
}

/** One page of the subscribers, and where it is in the whole. */
export interface SubscribersPage {
  subscribers: Subscriber[];
  paging: Paging;
}

/** One page of the blog's subscribers that match `query`, newest first. */
export async function fetchSubscribers(
  blogId: number,
  { q, state, page }: SubscriberQuery,
  signal?: AbortSignal,
): Promise<SubscribersPage> {
  const { data, headers } = await api.get<Subscribers>(subscribersPath(blogId), {
    query: { q: q || null, state: state || null, page, pageSize: SUBSCRIBERS_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return { subscribers: data.subscribers, paging: paging(headers) };
}

/** Removes a subscriber and the mail still queued for them. */
export async function removeSubscriber(blogId: number, subscriberId: number): Promise<EmailSettings> {
  const { data } = await api.delete<EmailAnswer>(`${subscribersPath(blogId)}/${subscriberId}`);
  return data.email;
}

/** Where the browser downloads every subscriber as CSV (a GET with the session's cookie). */
export const subscribersExportUrl = (blogId: number) => `${subscribersPath(blogId)}/export`;

/**
 * Imports another service's CSV export as confirmed subscribers; `consented` is the owner's word
 * that these readers agreed to get the posts by email. A 422 names `consented` or `csv`.
 */
export async function importSubscribers(blogId: number, csv: string, consented: boolean): Promise<ImportAnswer> {
  const { data } = await api.post<ImportAnswer>(`${subscribersPath(blogId)}/import`, { csv, consented });
  return data;
}
