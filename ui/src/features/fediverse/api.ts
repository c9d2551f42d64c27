// The calls behind the Fediverse panel (docs/api.md, 'The fediverse'): the handle, followers a page
// at a time, approving new ones, and blocked domains.
import type { Fediverse, FediverseAnswer, Follower, Followers } from '../../api-types/fediverse';
import { api, paging, type Paging } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Fediverse, Follower, GivenUp as GivenUpDeliveries, Refused } from '../../api-types/fediverse';

const fediversePath = (blogId: number) => `/api/my/blogs/${blogId}/fediverse`;

/** The blog's Fediverse settings. */
export async function fetchFediverse(blogId: number, signal?: AbortSignal): Promise<Fediverse> {
  const { data } = await api.get<FediverseAnswer>(fediversePath(blogId), signal ? { signal } : {});
  return data.fediverse;
}

/** Followers on one page of the list. */
export const FOLLOWERS_PAGE_SIZE = 50;

/** One page of the followers, and where it is in the whole. */
export interface FollowersPage {
  followers: Follower[];
  paging: Paging;
}

/** One page of the blog's followers, pending ones too, oldest first. */
export async function fetchFollowers(blogId: number, page: number, signal?: AbortSignal): Promise<FollowersPage> {
  const { data, headers } = await api.get<Followers>(`${fediversePath(blogId)}/followers`, {
    query: { page, pageSize: FOLLOWERS_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return { followers: data.followers, paging: paging(headers) };
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
