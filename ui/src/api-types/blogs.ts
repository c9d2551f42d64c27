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
url: string, subdomain: string, name: string, 
/**
 * One paragraph of plain text under its name ('' for none).
 */
description: string, 
/**
 * Whether it is listed on the instance's landing page (shown there only while approved).
 */
listed: boolean, 
/**
 * Whether it lets AI crawlers use it, or asks them not to (its robots.txt and the `noai`
 * directives on its pages).
 */
aiCrawlers: "allow" | "disallow", theme: Theme, favicon: Favicon, 
/**
 * The IANA zone its public pages show dates in, e.g. `Europe/Paris`.
 */
timeZone: string, socialAccounts: Array<SocialAccount>, 
/**
 * Its standing on the instance (docs/public-instance.md): waiting for review, approved,
 * silenced or suspended.
 */
state: "new" | "approved" | "silenced" | "suspended", 
/**
 * What the admin told the owner with a silence or suspension ('' when nothing).
 */
stateReason: string, 
/**
 * Bytes of images the owner's account stores (its upload quota's use).
 */
uploadBytes: number, 
/**
 * Bytes of images the blog may store (`--upload-quota-mb`).
 */
uploadQuotaBytes: number, 
/**
 * The two as Settings shows them, e.g. `12.3 MB of 1 GB`.
 */
uploadUse: string, };

/**
 * `{blog}`.
 */
export type BlogAnswer = { blog: Blog, };
