// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * An addon as the API shows it.
 */
export type Addon = { 
/**
 * Addon id.
 */
id: number, 
/**
 * Stable name used by the public pages.
 */
slug: string, 
/**
 * Display name.
 */
name: string, 
/**
 * What it does.
 */
description: string, };

/**
 * `{addon, installed}`: an addon after it was installed or uninstalled.
 */
export type AddonChanged = { addon: Addon, installed: boolean, };

/**
 * `{addons}`: the installed or the uninstalled ones.
 */
export type Addons = { addons: Array<Addon>, };
