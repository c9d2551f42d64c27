// The block rules of src/domain/blocks.rs with the same messages, so the editor stops a bad post
// before sending it and shows each message on the block at its index (docs/api.md, 'The post body
// and its rules'). The limits and prefixes are the server's own, from the page config
// (`blockRules`); this file only knows how to apply them. Lengths count characters (code points),
// as the server does, and "blank" and "whitespace" mean Unicode White_Space, which is what Rust's
// trim() and char::is_whitespace() use. tests/fixtures/block_rules.json holds the cases both
// sides pass.
import type { AppConfig, BlockRules } from '../../config/app-config';
import type { Block } from './api';

/** Messages by block index. */
export type BlockErrors = Record<number, string>;

/**
 * The rules for this deployment, from the page config. There is no copy here to fall back on: a
 * copy is what could drift from the server. A page without them was not served by a quire that
 * sends them (a server bug), so the editor does not start: this error reaches the route's error
 * screen (shown and logged), and the rest of the app keeps working.
 */
export function validationRules(config: Pick<AppConfig, 'blockRules'>): BlockRules {
  if (!config.blockRules) {
    throw new Error('The server sent no block rules (blockRules in #quire-config), so the editor cannot check posts');
  }
  return config.blockRules;
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
function urlProblem(url: string, prefixes: readonly string[], rules: BlockRules): string | null {
  if (isBlank(url)) return CANT_BE_BLANK;
  if (!prefixes.some((prefix) => url.startsWith(prefix))) return `Should start with ${prefixes.join(' or ')}`;
  if (length(url) > rules.maxUrl) return tooLong(rules.maxUrl);
  if (NOT_IN_URL.test(url)) return 'Should be a URL without spaces or quotes';
  return null;
}

/** The link block's URL rule alone (the editor puts a link's message on the field it is about). */
export function linkUrlProblem(url: string, rules: BlockRules): string | null {
  return urlProblem(url, rules.linkPrefixes, rules);
}

/** The first rule `block` breaks, as the message to show on it; null when it is fine. */
export function blockProblem(block: Block, rules: BlockRules): string | null {
  switch (block.type) {
    case 'heading':
      return textProblem(block.value.text, rules.maxHeading);
    case 'paragraph':
      return textProblem(block.value.text, rules.maxParagraph);
    case 'link':
      return (
        linkUrlProblem(block.value.url, rules) ??
        (length(block.value.title) > rules.maxUrl ? tooLong(rules.maxUrl) : null)
      );
    case 'image':
      return (
        urlProblem(block.value.url, [rules.imagePrefix], rules) ??
        (length(block.value.alt ?? '') > rules.maxAlt
          ? `The alt text should be at most ${rules.maxAlt} characters`
          : length(block.value.caption ?? '') > rules.maxCaption
            ? `The caption should be at most ${rules.maxCaption} characters`
            : null)
      );
    case 'spotify':
      return urlProblem(block.value.url, [rules.spotifyPrefix], rules);
    case 'tweet':
      return urlProblem(block.value.url, rules.tweetPrefixes, rules);
  }
}

/** Messages by index for every failing block; `exclude` skips one index (e.g. a block just added). */
export function validateBlocks(blocks: readonly Block[], rules: BlockRules, exclude?: number): BlockErrors {
  const errors: BlockErrors = {};
  blocks.forEach((block, index) => {
    if (index === exclude) return;
    const problem = blockProblem(block, rules);
    if (problem !== null) errors[index] = problem;
  });
  return errors;
}

/** A problem with the body as a whole (the server keys it `body`): no blocks, or too many. */
export function bodyProblem(blocks: readonly unknown[], rules: BlockRules): string | null {
  if (blocks.length === 0) return 'A post needs at least one block';
  if (blocks.length > rules.maxBlocks) return `A post can have at most ${rules.maxBlocks} blocks`;
  return null;
}

/** Whether `errors` holds any message. */
export function hasErrors(errors: BlockErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** 'JPEG, PNG and GIF' for `image/jpeg`, `image/png`, `image/gif`. */
function imageTypeNames(types: readonly string[]): string {
  const names = types.map((type) => type.replace(/^image\//, '').toUpperCase());
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

/**
 * Why the server would refuse `file` as an image upload (its type, then its size), in the server's
 * words; null when it may be sent. The server checks the bytes themselves as well.
 */
export function imageProblem(file: Pick<File, 'type' | 'size'>, rules: BlockRules): string | null {
  if (!rules.imageTypes.includes(file.type)) return `Only ${imageTypeNames(rules.imageTypes)} images can be uploaded`;
  if (file.size > rules.maxImageBytes) return `Images can be at most ${rules.maxImageBytes / (1024 * 1024)} MB`;
  return null;
}
