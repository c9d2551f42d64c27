// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * The HTTPS certificate of a verified domain, when Quire manages it.
 */
export type Certificate = { "state": "not_managed" } | { "state": "pending" } | { "state": "issued", notAfter: string | null, } | { "state": "error", error: string, retryAt: string | null, };

/**
 * A DNS record the owner adds.
 */
export type DnsRecord = { type: DnsRecordType, name: string, value: string, };

/**
 * A DNS record's type.
 */
export type DnsRecordType = "TXT" | "CNAME";

/**
 * `<domain>` of docs/api.md.
 */
export type Domain = { 
/**
 * The A-label form, for DNS.
 */
name: string, 
/**
 * The Unicode form, for people.
 */
displayName: string, 
/**
 * `waiting_for_dns`, `verified` or `error`.
 */
state: "waiting_for_dns" | "verified" | "error", error: string | null, 
/**
 * The records to add at the DNS provider: the TXT proof, then the CNAME.
 */
records: [DnsRecord, DnsRecord], checkedAt: string | null, verifiedAt: string | null, nextCheckAt: string | null, certificate: Certificate, };

/**
 * `{domain}`: the blog's custom domain, or null.
 */
export type MaybeDomain = { domain: Domain | null, };

/**
 * `{domain}`: the domain as it is after a change or a check.
 */
export type OneDomain = { domain: Domain, };
