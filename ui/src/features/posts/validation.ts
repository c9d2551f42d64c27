// The block rules, the same as the server's (src/domain/blocks.rs) with the same messages, so the
// editor stops a bad post before sending it and shows each message on the block at its index
// (SPEC §5, DESIGN §5). Lengths count characters (code points), as the server does, and
// "blank" and "whitespace" mean Unicode White_Space, which is what Rust's trim() and
// char::is_whitespace() use.
import type { AppConfig } from '../../config/app-config';
import type { Block } from './api';

/** Most blocks in one post. */
export const MAX_BLOCKS = 500;
/** Longest heading, in characters. */
export const MAX_HEADING = 300;
/** Longest paragraph, in characters. */
export const MAX_PARAGRAPH = 20_000;
/** Longest URL or link text, in characters. */
export const MAX_URL = 2_048;
/** What spotify block URLs start with. */
export const SPOTIFY_PREFIX = 'https://open.spotify.com/';
/** What tweet block URLs start with (either host). */
export const TWEET_PREFIXES = ['https://twitter.com/', 'https://x.com/'] as const;
/** The image host's prefix when uploads go to the third-party host. */
export const IMGUR_IMAGE_PREFIX = 'https://i.imgur.com/';

/** What the rules depend on: the prefix every image block URL must start with. */
export interface ValidationRules {
  imagePrefix: string;
}

/** Messages by block index. */
export type BlockErrors = Record<number, string>;

/** The image-prefix rule's prefix: the image host's, or this server's `/media/`. */
export function imagePrefix(config: Pick<AppConfig, 'appUrl' | 'imgurClientId'>): string {
  return config.imgurClientId ? IMGUR_IMAGE_PREFIX : `${config.appUrl.replace(/\/+$/, '')}/media/`;
}

/** The rules for this deployment. */
export function validationRules(config: Pick<AppConfig, 'appUrl' | 'imgurClientId'>): ValidationRules {
  return { imagePrefix: imagePrefix(config) };
}

// Unicode White_Space (Rust's char::is_whitespace): JavaScript's \s differs (it has U+FEFF, lacks U+0085).
const WHITE_SPACE = '\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const BLANK = new RegExp(`^[${WHITE_SPACE}]*$`);
// White space, control characters (Unicode Cc) and the characters that could break out of an attribute.
const NOT_IN_URL = new RegExp(`[${WHITE_SPACE}\\u0000-\\u001f\\u007f-\\u009f"<>\\\\\`]`);

const isBlank = (text: string) => BLANK.test(text);
/** Characters as the server counts them: code points, not UTF-16 units. */
const length = (text: string) => Array.from(text).length;

const CANT_BE_BLANK = "Can't be blank";
const tooLong = (max: number) => `Should be at most ${max} characters`;

function textProblem(text: string, max: number): string | null {
  if (isBlank(text)) return CANT_BE_BLANK;
  if (length(text) > max) return tooLong(max);
  return null;
}

/** The URL rules in the server's order: blank, prefix, length, characters. */
export function urlProblem(url: string, prefixes: readonly string[], described: string): string | null {
  if (isBlank(url)) return CANT_BE_BLANK;
  if (!prefixes.some((prefix) => url.startsWith(prefix))) return `Should start with ${described}`;
  if (length(url) > MAX_URL) return tooLong(MAX_URL);
  if (NOT_IN_URL.test(url)) return 'Should be a URL without spaces or quotes';
  return null;
}

/** The link block's URL rule alone (the editor puts a link's message on the field it is about). */
export function linkUrlProblem(url: string): string | null {
  return urlProblem(url, ['http://', 'https://'], 'http:// or https://');
}

/** The first rule `block` breaks, as the message to show on it; null when it is fine. */
export function blockProblem(block: Block, rules: ValidationRules): string | null {
  switch (block.type) {
    case 'heading':
      return textProblem(block.value.text, MAX_HEADING);
    case 'paragraph':
      return textProblem(block.value.text, MAX_PARAGRAPH);
    case 'link':
      return linkUrlProblem(block.value.url) ?? (length(block.value.title) > MAX_URL ? tooLong(MAX_URL) : null);
    case 'image':
      return urlProblem(block.value.url, [rules.imagePrefix], rules.imagePrefix);
    case 'spotify':
      return urlProblem(block.value.url, [SPOTIFY_PREFIX], SPOTIFY_PREFIX);
    case 'tweet':
      return urlProblem(block.value.url, TWEET_PREFIXES, TWEET_PREFIXES.join(' or '));
  }
}

/** Messages by index for every failing block; `exclude` skips one index (e.g. a block just added). */
export function validateBlocks(blocks: readonly Block[], rules: ValidationRules, exclude?: number): BlockErrors {
  const errors: BlockErrors = {};
  blocks.forEach((block, index) => {
    if (index === exclude) return;
    const problem = blockProblem(block, rules);
    if (problem !== null) errors[index] = problem;
  });
  return errors;
}

/** A problem with the body as a whole (the server keys it `body`): no blocks, or too many. */
export function bodyProblem(blocks: readonly unknown[]): string | null {
  if (blocks.length === 0) return 'A post needs at least one block';
  if (blocks.length > MAX_BLOCKS) return `A post can have at most ${MAX_BLOCKS} blocks`;
  return null;
}

/** Whether `errors` holds any message. */
export function hasErrors(errors: BlockErrors): boolean {
  return Object.keys(errors).length > 0;
}
