// The calls behind the Custom domain panel (docs/api.md, 'Custom domains'): the blog's own domain
// name, its DNS records, checking them, and removing the domain.
import type { Domain as CustomDomain, MaybeDomain, OneDomain } from '../../api-types/domains';
import { api } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type {
  Certificate as DomainCertificate,
  DnsRecord as DomainRecord,
  Domain as CustomDomain,
} from '../../api-types/domains';

/** Where a custom domain stands (docs/api.md, 'Custom domains'). */
export type DomainState = CustomDomain['state'];

const domainPath = (blogId: number) => `/api/my/blogs/${blogId}/domain`;

/** The blog's custom domain, or null when it has none. */
export async function fetchDomain(blogId: number, signal?: AbortSignal): Promise<CustomDomain | null> {
  const { data } = await api.get<MaybeDomain>(domainPath(blogId), signal ? { signal } : {});
  return data.domain;
}

/** Sets (or replaces) the blog's custom domain; a 422 carries the message under `name`. */
export async function setDomain(blogId: number, name: string): Promise<CustomDomain> {
  const { data } = await api.put<OneDomain>(domainPath(blogId), { name });
  return data.domain;
}

/** Removes the custom domain: the blog is served at its subdomain again. */
export async function removeDomain(blogId: number): Promise<void> {
  await api.delete(domainPath(blogId));
}

/** Checks the DNS records now; a 429 carries 'try again in N seconds' under `check`. */
export async function checkDomain(blogId: number): Promise<CustomDomain> {
  const { data } = await api.post<OneDomain>(`${domainPath(blogId)}/check`, {});
  return data.domain;
}
