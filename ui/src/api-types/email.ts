// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{email}`: every call on the settings answers them as they are after it.
 */
export type EmailAnswer = { email: EmailSettings, };

/**
 * The blog's email settings and counts, `<email>` of docs/api.md.
 */
export type EmailSettings = { 
/**
 * The blog sends its posts by email (the subscribe form shows on its pages).
 */
enabled: boolean, 
/**
 * Its posts' mail carries `Reply-To` the owner's address.
 */
replyToOwner: boolean, 
/**
 * The owner gets the hourly digest of what waits for them.
 */
notifyOwner: boolean, 
/**
 * When a send's bounces paused the blog's mail (null when not paused).
 */
pausedAt: string | null, 
/**
 * Subscribers who confirmed.
 */
confirmed: number, 
/**
 * Subscribers waiting for their confirmation.
 */
pending: number, 
/**
 * Addresses the relay refused for good.
 */
bounced: number, 
/**
 * Whether the blog may import subscribers (it is approved).
 */
canImport: boolean, 
/**
 * Subscribers it may still import in the next 24 hours.
 */
importsLeftToday: number, };

/**
 * `{import, email}`: what an import did, and the settings after it.
 */
export type ImportAnswer = { import: SubscriberImport, email: EmailSettings, };

/**
 * A row of the file that was left out.
 */
export type InvalidRow = { line: number, reason: string, };

/**
 * A subscriber as the owner's list shows them.
 */
export type Subscriber = { id: number, email: string, state: "pending" | "confirmed" | "bounced", 
/**
 * `form` (the blog's form) or `import` (a moved blog's archive, another service's CSV).
 */
source: "form" | "import", subscribedAt: string, confirmedAt: string | null, 
/**
 * When the last post's mail went to them.
 */
lastSentAt: string | null, };

/**
 * What an import of another service's list did.
 */
export type SubscriberImport = { 
/**
 * New subscribers, confirmed.
 */
added: number, 
/**
 * Addresses the blog had already (left as they were) or the file repeated.
 */
already: number, 
/**
 * Readers the file says get no mail there: left out.
 */
unsubscribed: number, 
/**
 * The first bad rows: their line in the file and what is wrong.
 */
invalid: Array<InvalidRow>, 
/**
 * All bad rows.
 */
invalidCount: number, };

/**
 * `{subscribers}`: one page of them.
 */
export type Subscribers = { subscribers: Array<Subscriber>, };
