// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{redirectTo}`: where the owner's browser goes now.
 */
export type Answered = { redirectTo: string, };

/**
 * The app asking, as the consent screen shows it.
 */
export type AppJson = { clientId: string, 
/**
 * Its name: its metadata's, its page's title, or its host.
 */
clientName: string, redirectUri: string, 
/**
 * The scopes asked for that Quire can grant.
 */
scopes: Array<string>, 
/**
 * The blog's address, the profile URL the app will know.
 */
profileUrl: string, };

/**
 * `{app}` to show, or `{redirectTo}` when the request must go back to the app at once (one it
 * can be told about: its redirect URI is its own).
 */
export type ConsentJson = { app: AppJson | null, redirectTo: string | null, };
