// The server replaces <!--QUIRE_CONFIG--> in index.html with
// <script id="quire-config" type="application/json">{...}</script> (camelCase JSON).
// It is parsed once; where it is missing (Vitest, a bare static server) defaults
// derived from the page's own location are used. The block rules have no default: they are the
// server's alone, and a copy here is what could drift from them (see `blockRules`).

import type { AppSettings, BlockRules, PostRules, ScheduleRules } from '../api-types/app-settings';

// The page config's types are generated from the server's struct (src/http/ui.rs, ui/src/api-types/):
// `BlockRules` are the rules a post's blocks and uploaded images must follow, `PostRules` those of
// a post's tags and of pages, `ScheduleRules` those of a post's scheduled publication time.
export type { BlockRules, PostRules, ScheduleRules } from '../api-types/app-settings';

/** The server's rules, which the app may be without. */
type Rules = 'blockRules' | 'postRules' | 'scheduleRules';

/**
 * Deployment settings the server hands to the app. The rules are null when the page has none (a
 * server bug, or a bare static server): the editor then refuses to start rather than check posts
 * against block rules of its own, the server alone checks tags and pages, and scheduling is hidden
 * (the editor then only publishes now).
 */
export type AppConfig = Omit<AppSettings, Rules> & { [Rule in Rules]: AppSettings[Rule] | null };

/** The id of the script element the server injects. */
export const CONFIG_ELEMENT_ID = 'quire-config';

function defaults(location: Location): AppConfig {
  return {
    host: location.host || 'localhost:8080',
    appUrl: location.origin && location.origin !== 'null' ? location.origin : 'http://localhost:8080',
    scheme: location.protocol === 'https:' ? 'https' : 'http',
    providerName: 'Local',
    supportUrl: null,
    imgurClientId: null,
    emojiCdn: null,
    emojiImages: null,
    blockRules: null,
    postRules: null,
    scheduleRules: null,
    signups: 'open',
    contactEmail: null,
    termsUrl: null,
    privacyUrl: null,
    email: false,
  };
}

/** Who may create a blog (`--signups`). */
export type SignupMode = AppSettings['signups'];
const SIGNUP_MODES: readonly SignupMode[] = ['open', 'approval', 'invite', 'closed'];
const isSignupMode = (value: unknown): value is SignupMode => SIGNUP_MODES.includes(value as SignupMode);
/** A path on this origin (`/terms`), or null: the page config names only the server's own pages. */
const ownPath = (value: unknown): string | null =>
  typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : null;

const text = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback;
const optionalText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every(isText);

/** The check of each field of the block rules; the type makes the compiler insist on every field. */
const RULE_FIELDS: { [Field in keyof BlockRules]: (value: unknown) => value is BlockRules[Field] } = {
  maxBlocks: isCount,
  maxHeading: isCount,
  maxParagraph: isCount,
  maxUrl: isCount,
  maxAlt: isCount,
  maxCaption: isCount,
  blockTypes: isTextList,
  linkPrefixes: isTextList,
  spotifyPrefix: isText,
  tweetPrefixes: isTextList,
  imagePrefix: isText,
  imageTypes: isTextList,
  maxImageBytes: isCount,
};

/**
 * `value` as block rules when every field has its type (whole numbers from 1, non-empty strings,
 * non-empty lists of them); otherwise null: half a set of rules is no better than none.
 */
export function parseBlockRules(value: unknown): BlockRules | null {
  if (value === null || typeof value !== 'object') return null;
  const given = value as Record<string, unknown>;
  const rules: Record<string, unknown> = {};
  for (const [field, valid] of Object.entries(RULE_FIELDS)) {
    if (!valid(given[field])) return null;
    rules[field] = given[field];
  }
  return rules as unknown as BlockRules;
}

/** Parses the injected config from `doc`, filling anything missing or malformed with defaults. */
export function readAppConfig(doc: Document = document): AppConfig {
  const base = defaults(doc.defaultView?.location ?? window.location);
  const element = doc.getElementById(CONFIG_ELEMENT_ID);
  if (!element?.textContent) return base;
  let raw: unknown;
  try {
    raw = JSON.parse(element.textContent);
  } catch {
    console.warn('quire: the #quire-config script is not valid JSON; using defaults');
    return base;
  }
  if (raw === null || typeof raw !== 'object') return base;
  const given = raw as Record<string, unknown>;
  return {
    host: text(given.host, base.host),
    appUrl: text(given.appUrl, base.appUrl),
    scheme: given.scheme === 'https' || given.scheme === 'http' ? given.scheme : base.scheme,
    providerName: text(given.providerName, base.providerName),
    supportUrl: optionalText(given.supportUrl),
    imgurClientId: optionalText(given.imgurClientId),
    emojiCdn: optionalText(given.emojiCdn),
    emojiImages: optionalText(given.emojiImages),
    blockRules: readBlockRules(given.blockRules),
    postRules: parsePostRules(given.postRules),
    scheduleRules: parseScheduleRules(given.scheduleRules),
    signups: isSignupMode(given.signups) ? given.signups : base.signups,
    contactEmail: optionalText(given.contactEmail),
    termsUrl: ownPath(given.termsUrl),
    privacyUrl: ownPath(given.privacyUrl),
    email: given.email === true,
  };
}

/** `value` as post rules when every field has its type; otherwise null. */
export function parsePostRules(value: unknown): PostRules | null {
  if (value === null || typeof value !== 'object') return null;
  const given = value as Record<string, unknown>;
  if (![given.maxTags, given.maxTag, given.maxPages].every(isCount)) return null;
  if (!isTextList(given.reservedPaths) || !isText(given.reservedPrefix)) return null;
  return {
    maxTags: given.maxTags as number,
    maxTag: given.maxTag as number,
    maxPages: given.maxPages as number,
    reservedPaths: given.reservedPaths,
    reservedPrefix: given.reservedPrefix,
  };
}

function readBlockRules(value: unknown): BlockRules | null {
  const rules = parseBlockRules(value);
  if (rules === null && value !== undefined) console.warn('quire: blockRules in #quire-config is malformed; ignored');
  return rules;
}

/** `value` as scheduling rules when its field is a whole number from 1; otherwise null. */
export function parseScheduleRules(value: unknown): ScheduleRules | null {
  if (value === null || typeof value !== 'object') return null;
  const { maxDaysAhead } = value as Record<string, unknown>;
  return isCount(maxDaysAhead) ? { maxDaysAhead } : null;
}

let cached: AppConfig | undefined;

/** The app's config, read from the page on first use. */
export function appConfig(): AppConfig {
  cached ??= readAppConfig();
  return cached;
}
