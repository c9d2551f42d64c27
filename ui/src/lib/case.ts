// Deep key conversion between the server's snake_case and the app's camelCase.
// Only plain objects and arrays are walked; other values (Date, Blob, ...) pass through.

/** `faviconId` -> `favicon_id`; keys without capitals (`children.3`) are unchanged. */
export function toSnakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** `published_at` -> `publishedAt`; leading underscores and dotted keys are kept. */
export function toCamelCase(key: string): string {
  return key.replace(/(?<=[a-zA-Z0-9])_+([a-zA-Z0-9])/g, (_, next: string) => next.toUpperCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[convert(key)] = convertKeys(inner, convert);
  return out;
}

/** Returns a copy of `value` with every object key converted to snake_case. */
export function snakeKeys<T = unknown>(value: unknown): T {
  return convertKeys(value, toSnakeCase) as T;
}

/** Returns a copy of `value` with every object key converted to camelCase. */
export function camelKeys<T = unknown>(value: unknown): T {
  return convertKeys(value, toCamelCase) as T;
}
