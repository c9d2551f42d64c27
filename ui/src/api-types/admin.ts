// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * One entry of the record of admin actions.
 */
export type AdminAction = { 
/**
 * Row id.
 */
id: number, 
/**
 * The admin's email, or "command line".
 */
admin: string, 
/**
 * The blog's subdomain (kept after a deletion).
 */
subdomain: string, 
/**
 * `approve`, `silence`, `suspend`, `unsuspend` or `delete`.
 */
action: string, 
/**
 * The reason given ('' when none).
 */
reason: string, 
/**
 * When (RFC 3339, UTC).
 */
at: string, };

/**
 * `{actions}`: a page of the record of admin actions, newest first, with the paging headers.
 */
export type AdminActions = { actions: Array<AdminAction>, };

/**
 * A blog as an admin sees it in the queue, the search and its detail.
 */
export type AdminBlog = { 
/**
 * Blog id.
 */
id: number, 
/**
 * Its subdomain.
 */
subdomain: string, 
/**
 * Its name.
 */
name: string, 
/**
 * The owner's sign-in email.
 */
ownerEmail: string, 
/**
 * `new`, `approved`, `silenced` or `suspended`.
 */
state: string, 
/**
 * What the admin told the owner with the last silence or suspension ('' when nothing).
 */
stateReason: string, 
/**
 * When it was created (RFC 3339, UTC).
 */
createdAt: string, 
/**
 * When an approved blog went back to the review queue (null when it is not flagged).
 */
flaggedAt: string | null, 
/**
 * Its published posts and pages.
 */
postCount: number, 
/**
 * 0 (nothing like spam) to 100.
 */
riskScore: number, 
/**
 * What the score is made of, e.g. "41 links to 3 hosts in 2 posts; 'casino' ×3".
 */
riskExplanation: string, 
/**
 * The outbound link hosts of its posts, most frequent first.
 */
linkHosts: Array<LinkHost>, 
/**
 * What it sends by email (issue 30).
 */
mail: AdminMail, };

/**
 * `{blogs}`: a page of blogs (the queue, the search), with the paging headers.
 */
export type AdminBlogs = { blogs: Array<AdminBlog>, };

/**
 * `{done}`: what an action did, in one line (a deletion's answer: the blog is gone).
 */
export type AdminDone = { done: string, };

/**
 * A blog's email sending, as an admin sees it.
 */
export type AdminMail = { 
/**
 * Its confirmed subscribers.
 */
subscribers: number, 
/**
 * Messages it sent today (UTC).
 */
sentToday: number, 
/**
 * Messages it sent that bounced (a 5xx for the address), over all its posts.
 */
bounced: number, 
/**
 * When its sending was paused for bounces (null while it sends).
 */
pausedAt: string | null, };

/**
 * `{reports}`: a page of abuse reports, with the paging headers.
 */
export type AdminReports = { reports: Array<Report>, };

/**
 * One outbound link host of a blog's posts and how many links go there.
 */
export type LinkHost = { 
/**
 * The host, without `www.`.
 */
host: string, 
/**
 * Links to it in the blog's published posts.
 */
links: number, };

/**
 * `{blog}`: one blog, as it is after the call.
 */
export type OneAdminBlog = { blog: AdminBlog, };

/**
 * `{report}`: one abuse report, as it is after the call.
 */
export type OneReport = { report: Report, };

/**
 * A stored report, as the Admin screen lists it.
 */
export type Report = { 
/**
 * Its id.
 */
id: number, 
/**
 * The reported blog's subdomain (kept after the blog is deleted).
 */
subdomain: string, 
/**
 * The blog's trust state now; null when the blog is gone.
 */
blogState: string | null, 
/**
 * The reported post's address ('' for the whole blog).
 */
postUrl: string, 
/**
 * Why: `spam`, `phishing`, `illegal`, `harassment` or `other`.
 */
reason: string, 
/**
 * What the report form calls the reason, e.g. "Phishing or malware".
 */
reasonLabel: string, 
/**
 * The reader's details, as they typed them.
 */
details: string, 
/**
 * Where to answer ('' when not given).
 */
contactEmail: string, 
/**
 * `open`, `resolved` or `dismissed`.
 */
state: string, 
/**
 * The admin who settled it (null while open).
 */
handledBy: string | null, 
/**
 * When it was settled (RFC 3339, UTC; null while open).
 */
handledAt: string | null, 
/**
 * When it was sent (RFC 3339, UTC).
 */
createdAt: string, };
