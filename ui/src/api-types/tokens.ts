// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{token, apiToken}`: the token itself, shown this once, and its entry in the list.
 */
export type CreatedToken = { token: string, apiToken: TokenJson, };

/**
 * One token as the list shows it.
 */
export type TokenJson = { id: number, name: string, 
/**
 * Its scopes' names: create, update, delete, undelete, media, draft.
 */
scopes: Array<string>, 
/**
 * Its last 4 characters, to recognize it.
 */
last4: string, 
/**
 * The IndieAuth app it was issued to (its `client_id`); null for a token made in Settings.
 */
clientId: string | null, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, };

/**
 * `{tokens}`, newest first.
 */
export type TokenList = { tokens: Array<TokenJson>, };
