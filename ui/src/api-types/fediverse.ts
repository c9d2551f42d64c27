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
approveFollowers: boolean, followerCount: number, followers: Array<Follower>, blockedDomains: Array<string>, 
/**
 * Inboxes Quire stopped delivering to.
 */
givenUp: Array<GivenUp>, };

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
 * An inbox host deliveries were given up for, how many and the last error.
 */
export type GivenUp = { inboxHost: string, count: number, lastError: string | null, };
