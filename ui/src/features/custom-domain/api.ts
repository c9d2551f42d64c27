// The calls behind the Custom domain panel (docs/api.md, 'Custom domains'): the blog's own domain
// name, its DNS records, checking them, and removing the domain.
import { api } from '../../lib/api';

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

const domainPath = (blogId: number) => `/api/my/blogs/${blogId}/domain`;

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
