// The server replaces <!--QUIRE_CONFIG--> in index.html with
// <script id="quire-config" type="application/json">{...}</script> (camelCase JSON).
// It is parsed once; where it is missing (Vitest, a bare static server) defaults
// derived from the page's own location are used.

/** Deployment settings the server hands to the app. */
export interface AppConfig {
  /** Public host name with port when not 80/443, e.g. `localhost:8080`; blogs live at `{subdomain}.{host}`. */
  host: string;
  /** The app's own origin, e.g. `http://localhost:8080`. */
  appUrl: string;
  /** `http` or `https`. */
  scheme: string;
  /** Name of the sign-in provider shown on buttons (e.g. `Google`, `Local`). */
  providerName: string;
  /** Creator-funding page for the Support entry; null hides it. */
  supportUrl: string | null;
  /** Image host client ID; null means uploads go to this server. */
  imgurClientId: string | null;
  /** Emoji image CDN prefix for the favicon picker; null means the server's own SVGs. */
  emojiCdn: string | null;
}

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
  };
}

const text = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback;
const optionalText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

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
  };
}

let cached: AppConfig | undefined;

/** The app's config, read from the page on first use. */
export function appConfig(): AppConfig {
  cached ??= readAppConfig();
  return cached;
}
