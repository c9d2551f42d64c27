// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{session}`: the session, or null for a visitor (`GET /api/session`).
 */
export type MaybeSession = { session: Session | null, };

/**
 * `{session}`: the session a sign-in started, or the current one.
 */
export type OneSession = { session: Session, };

/**
 * Who is signed in and which blog is theirs (null until they create one).
 */
export type Session = { user: User, blogId: number | null, 
/**
 * Whether the user is one of the instance's admins (`--admin`): the owner area shows Admin.
 */
isAdmin: boolean, };

/**
 * What `POST /api/auth/nonce` answers: the provider page to open in the popup.
 */
export type SignInStart = { nonce: string, 
/**
 * The provider's authorization endpoint with client, redirect, scope and nonce filled in.
 */
authorizationUrl: string, };

/**
 * A user as the API shows it.
 */
export type User = { 
/**
 * User id.
 */
id: number, 
/**
 * E-mail address from the provider.
 */
email: string, 
/**
 * Display name from the provider.
 */
name: string, };
