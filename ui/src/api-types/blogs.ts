// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.
import type { Favicon } from "./favicons";
import type { SocialAccount } from "./social-accounts";
import type { Theme } from "./themes";

/**
 * The owner's blog, as every call of this file answers it.
 */
export type Blog = { id: number, 
/**
 * The public address, e.g. `http://alice.localhost:8080`.
 */
url: string, subdomain: string, name: string, theme: Theme, favicon: Favicon, 
/**
 * The IANA zone its public pages show dates in, e.g. `Europe/Paris`.
 */
timeZone: string, socialAccounts: Array<SocialAccount>, };

/**
 * `{blog}`.
 */
export type BlogAnswer = { blog: Blog, };
