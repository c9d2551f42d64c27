// The calls behind the Fediverse panel (docs/api.md, 'The fediverse'): the handle, followers,
// approving new ones, and blocked domains.
import { api } from '../../lib/api';

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

const fediversePath = (blogId: number) => `/api/my/blogs/${blogId}/fediverse`;

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
