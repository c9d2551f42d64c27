// The calls behind the Fediverse panel (docs/api.md, 'The fediverse'): the handle, followers,
// approving new ones, and blocked domains.
import type { Fediverse, FediverseAnswer } from '../../api-types/fediverse';
import { api } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Fediverse, Follower, GivenUp as GivenUpDeliveries } from '../../api-types/fediverse';

const fediversePath = (blogId: number) => `/api/my/blogs/${blogId}/fediverse`;

/** The blog's Fediverse settings. */
export async function fetchFediverse(blogId: number, signal?: AbortSignal): Promise<Fediverse> {
  const { data } = await api.get<FediverseAnswer>(fediversePath(blogId), signal ? { signal } : {});
  return data.fediverse;
}

/** Turns the approval of new followers on or off. */
export async function setApproveFollowers(blogId: number, approveFollowers: boolean): Promise<Fediverse> {
  const { data } = await api.put<FediverseAnswer>(fediversePath(blogId), { approveFollowers });
  return data.fediverse;
}

/** Accepts a pending follower. */
export async function approveFollower(blogId: number, followerId: number): Promise<Fediverse> {
  const { data } = await api.post<FediverseAnswer>(`${fediversePath(blogId)}/followers/${followerId}/approve`, {});
  return data.fediverse;
}

/** Refuses a pending follower or removes an accepted one. */
export async function removeFollower(blogId: number, followerId: number): Promise<Fediverse> {
  const { data } = await api.delete<FediverseAnswer>(`${fediversePath(blogId)}/followers/${followerId}`);
  return data.fediverse;
}

/** Blocks a domain for the blog; a 422 carries the message under `domain`. */
export async function blockDomain(blogId: number, domain: string): Promise<Fediverse> {
  const { data } = await api.post<FediverseAnswer>(`${fediversePath(blogId)}/blocked_domains`, { domain });
  return data.fediverse;
}

/** Unblocks a domain for the blog. */
export async function unblockDomain(blogId: number, domain: string): Promise<Fediverse> {
  const path = `${fediversePath(blogId)}/blocked_domains/${encodeURIComponent(domain)}`;
  const { data } = await api.delete<FediverseAnswer>(path);
  return data.fediverse;
}
