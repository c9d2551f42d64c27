// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * The blog's Fediverse settings, `<fediverse>` of docs/api.md.
 */
export type Fediverse = { 
/**
 * `@alice@example.com`.
 */
handle: string, actorUrl: string, 
/**
 * Whether new followers wait for the owner's approval.
 */
approveFollowers: boolean, followerCount: number, 
/**
 * Followers waiting for the owner's approval (`GET .../fediverse/followers` pages them all).
 */
pendingCount: number, blockedDomains: Array<string>, 
/**
 * Inboxes Quire stopped delivering to.
 */
givenUp: Array<GivenUp>, 
/**
 * What the limits on remote servers refused, by kind.
 */
refused: Array<Refused>, };

/**
 * `{fediverse}`: every call of the Fediverse settings answers the settings as they are after it.
 */
export type FediverseAnswer = { fediverse: Fediverse, };

/**
 * A follower of the blog.
 */
export type Follower = { id: number, 
/**
 * `@bob@peer.example`.
 */
handle: string, actorUrl: string, state: FollowerState, 
/**
 * When it followed.
 */
since: string, };

/**
 * Whether a follower was accepted or waits for the owner's approval.
 */
export type FollowerState = "accepted" | "pending";

/**
 * `{followers}`: one page of them.
 */
export type Followers = { followers: Array<Follower>, };

/**
 * An inbox host deliveries were given up for, how many and the last error.
 */
export type GivenUp = { inboxHost: string, count: number, lastError: string | null, };

/**
 * What the limits on remote servers refused of one kind (`reply`, `pending_follower`, `follower`,
 * `reaction`).
 */
export type Refused = { 
/**
 * `reply`, `pending_follower`, `follower` or `reaction`.
 */
kind: string, 
/**
 * How many were refused.
 */
count: number, 
/**
 * The host the last one came from.
 */
lastHost: string, 
/**
 * When the last one came.
 */
lastAt: string, };
