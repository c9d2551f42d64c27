// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * One block of a post. Its type names (`Block::VARIANTS`) are its serde tags.
 */
export type Block = { "type": "heading", "value": { 
/**
 * Its text.
 */
text: string, } } | { "type": "paragraph", "value": { 
/**
 * Its text.
 */
text: string, } } | { "type": "link", "value": { 
/**
 * Target, http(s) only.
 */
url: string, 
/**
 * Link text ('Link Text' in the editor); the URL is shown when empty.
 */
title: string, } } | { "type": "image", "value": { 
/**
 * Its URL on the image host.
 */
url: string, 
/**
 * What it shows, for readers who can't see it (empty: not described).
 */
alt?: string, 
/**
 * Shown under it (empty: none).
 */
caption?: string, } } | { "type": "spotify", "value": { 
/**
 * Its open.spotify.com URL.
 */
url: string, } } | { "type": "tweet", "value": { 
/**
 * Its status URL.
 */
url: string, } };

/**
 * `{posts}`: a page of the list, or the search's matches.
 */
export type ManyPosts = { posts: Array<Post>, };

/**
 * `{post}`: a post created, read or changed.
 */
export type OnePost = { 
/**
 * The post.
 */
post: Post, };

/**
 * The paste as blocks, and what the owner should know of the conversion.
 */
export type PastedBlocks = { 
/**
 * The blocks, in order, each following the post's block rules.
 */
blocks: Array<Block>, 
/**
 * What was changed or could not be carried over, one sentence each.
 */
notes: Array<string>, };

/**
 * The API shape of a post. The body is sent as stored (it was validated and normalized
 * when written), so answering never parses it.
 */
export type Post = { shortId: string, permalink: string, title: string, publishedAt: string | null, 
/**
 * When an unpublished post is to be published; null otherwise.
 */
scheduledAt: string | null, createdAt: string, updatedAt: string, body: PostBody, tags: Array<string>, 
/**
 * Whether it is a page (at `/{slug}`, in the blog's navigation).
 */
page: boolean, 
/**
 * Whether its owner closed its comments (`PUT .../posts/{postId}/comments`).
 */
commentsClosed: boolean, 
/**
 * `public`, or `unlisted`: reachable by its permalink only (docs/unlisted.md). A page is
 * always public.
 */
visibility: "public" | "unlisted", 
/**
 * Page views (the post list only).
 */
views?: number, 
/**
 * Its email to the blog's subscribers (the post list only, when the instance sends mail):
 * null when it was never mailed.
 */
mail?: PostMail | null, 
/**
 * Likes from the fediverse.
 */
likes: number, 
/**
 * Boosts from the fediverse.
 */
boosts: number, 
/**
 * Replies from the fediverse, held and approved.
 */
replies: number, 
/**
 * Comments and webmentions, held and approved (not spam).
 */
responses: number, 
/**
 * Its version, raised by every change; an update sends it back to be refused (409) rather
 * than overwrite a newer one (docs/edit-conflicts.md). Also its `ETag`, `"N"`.
 */
version: number, };

/**
 * A valid body: `{"type": "root", "children": [...]}`.
 */
export type PostBody = { type: 'root', 
/**
 * The blocks, in order.
 */
children: Array<Block>, };

/**
 * A post's email to the blog's subscribers: waiting for its grace period (`dueAt`), then
 * how many messages the relay took, how many wait and how many were given up.
 */
export type PostMail = { 
/**
 * When the grace period ends and the messages are queued; null once they are.
 */
dueAt: string | null, sent: number, waiting: number, failed: number, };

/**
 * `{title, html, page}`: the title the post would get, the HTML of its blocks as its public
 * page shows them (its first heading is the title, so it is not repeated), and the address of
 * the whole page, held for ten minutes.
 */
export type PostPreview = { title: string, html: string, 
/**
 * The post page as readers will see it, on the blog's own host (`/post-preview/{token}`).
 */
page: string, };

/**
 * A 409: the update was based on an older version; nothing was saved. `post` is the post as
 * it is now, with its version, which a save sends back to replace it.
 */
export type StalePost = { errors: Array<VersionRefusal>, post: Post, };

/**
 * The one message of a 409, under `version`: the API's error shape (`{errors: [{version}]}`).
 */
export type VersionRefusal = { version: string, };
