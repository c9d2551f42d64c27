// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{socialAccount}`: the account just connected.
 */
export type Connected = { socialAccount: SocialAccount, };

/**
 * A connected provider account as the API shows it.
 */
export type SocialAccount = { 
/**
 * Account id.
 */
id: number, 
/**
 * Provider name, e.g. "Google".
 */
provider: string, 
/**
 * E-mail address at the provider.
 */
email: string, 
/**
 * When it was connected.
 */
createdAt: string, };
