// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * The server's settings the owner app reads from `index.html` (`ui/src/config/app-config.ts`).
 */
export type AppSettings = { 
/**
 * Public host name with port when not 80/443, e.g. `localhost:8080`; blogs live at `{subdomain}.{host}`.
 */
host: string, 
/**
 * The app's own origin, e.g. `http://localhost:8080`.
 */
appUrl: string, 
/**
 * `http` or `https`.
 */
scheme: string, 
/**
 * Name of the sign-in provider shown on buttons (e.g. `Google`, `Local`).
 */
providerName: string, 
/**
 * Creator-funding page for the Support entry; null hides it.
 */
supportUrl: string | null, 
/**
 * Image host client ID; null means uploads go to this server.
 */
imgurClientId: string | null, 
/**
 * Emoji image CDN prefix for the icon picker and preview; null means the server's own images.
 */
emojiCdn: string | null, 
/**
 * Where the server's own emoji images are, e.g. `/emoji/16.0.1/`; null when its build has none.
 */
emojiImages: string | null, 
/**
 * The rules a post's blocks and uploaded images must follow.
 */
blockRules: BlockRules, 
/**
 * The rules of a post's tags and of pages.
 */
postRules: PostRules, 
/**
 * The rules of a post's scheduled publication time.
 */
scheduleRules: ScheduleRules, 
/**
 * Who may create a blog (`--signups`): `open`, `approval`, `invite` or `closed`.
 */
signups: 'open' | 'approval' | 'invite' | 'closed', 
/**
 * Where people write to the operator (`--contact-email`); null when not given.
 */
contactEmail: string | null, 
/**
 * The operator's terms page (`/terms`); null when `--terms` is not given.
 */
termsUrl: string | null, 
/**
 * The operator's privacy page (`/privacy`); null when `--privacy` is not given.
 */
privacyUrl: string | null, 
/**
 * Whether the instance sends email (`--smtp-url`): Settings shows the Subscribers panel and
 * the post list each post's email only then.
 */
email: boolean, };

/**
 * The block rules as the owner app's page config carries them (`blockRules`), so the editor
 * checks posts with the server's own limits, prefixes and types.
 */
export type BlockRules = { 
/**
 * Most blocks in one post.
 */
maxBlocks: number, 
/**
 * Longest heading.
 */
maxHeading: number, 
/**
 * Longest paragraph.
 */
maxParagraph: number, 
/**
 * Longest URL or link text.
 */
maxUrl: number, 
/**
 * Longest alt text of an image.
 */
maxAlt: number, 
/**
 * Longest caption of an image.
 */
maxCaption: number, 
/**
 * Every block type the server takes, in the order the add-block dialog offers them.
 */
blockTypes: Array<string>, 
/**
 * What link URLs start with (any of them).
 */
linkPrefixes: Array<string>, 
/**
 * What spotify block URLs start with.
 */
spotifyPrefix: string, 
/**
 * What tweet block URLs start with (any of them).
 */
tweetPrefixes: Array<string>, 
/**
 * What image block URLs start with: the image host's, or this server's `/media/`.
 */
imagePrefix: string, 
/**
 * The MIME types an image upload may have.
 */
imageTypes: Array<string>, 
/**
 * Largest image upload, in bytes.
 */
maxImageBytes: number, };

/**
 * The tag and page rules as the owner app's page config carries them (`postRules`).
 */
export type PostRules = { 
/**
 * Most tags on one post.
 */
maxTags: number, 
/**
 * Longest tag, in characters.
 */
maxTag: number, 
/**
 * Most pages one blog has.
 */
maxPages: number, 
/**
 * First path segments the blog answers itself, which no page may take.
 */
reservedPaths: Array<string>, 
/**
 * A prefix of such paths.
 */
reservedPrefix: string, };

/**
 * The scheduling rules as the owner app's page config carries them (`scheduleRules`).
 */
export type ScheduleRules = { 
/**
 * How far ahead a post can be scheduled, in days.
 */
maxDaysAhead: number, };
