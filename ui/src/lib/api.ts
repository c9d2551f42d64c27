// The one fetch wrapper. Every call to the server goes through here, so no call site
// repeats any of this:
//   - request bodies (and query keys) go out in snake_case, responses come back in camelCase;
//   - same-origin calls send cookies and the `CSRF-Token` header read from the `csrf_token` cookie;
//   - a non-2xx answer `{"errors": [{"<field>": "<message>"}, ...]}` becomes one ApiError.
// FormData bodies (image upload) and Blob or File bodies (an import's file) are sent untouched,
// without a Content-Type of ours (the browser sets the multipart boundary, or the file's type). Cross-origin calls (the third-party image host) get no cookies and no CSRF token.

import { readCookie } from './cookies';
import { camelKeys, snakeKeys, toCamelCase, toSnakeCase } from './case';

/** Name of the cookie the server sets on every page load; its value goes in the CSRF header. */
export const CSRF_COOKIE = 'csrf_token';
/** Header every state-changing request carries (the server checks it on every non-GET). */
export const CSRF_HEADER = 'CSRF-Token';

/** The single error type for failed calls: HTTP status plus the server's messages. */
export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached at all. */
  readonly status: number;
  /** Every message from the `errors` list, in order. */
  readonly messages: string[];
  /** Messages by field key (camelCased), e.g. `{"children.3": ["Can't be blank"]}`. */
  readonly fields: Record<string, string[]>;
  /** The whole answer, camelCased (e.g. a 409's current post beside its `errors`); null when not JSON. */
  readonly body: unknown;

  constructor(status: number, messages: string[], fields: Record<string, string[]> = {}, body: unknown = null) {
    const list = messages.length > 0 ? messages : [`Request failed with status ${status}`];
    super(list.join('\n'));
    this.name = 'ApiError';
    this.status = status;
    this.messages = list;
    this.fields = fields;
    this.body = body;
  }

  /** Messages for one field key, or an empty list. */
  messagesFor(field: string): string[] {
    return this.fields[field] ?? [];
  }
}

/** What every helper resolves to: the camelCased body (null when empty) and the response headers. */
export interface ApiResponse<T> {
  data: T;
  headers: Headers;
  status: number;
}

type QueryValue = string | number | boolean | null | undefined;

/** Per-call options. */
export interface ApiOptions {
  /** Query parameters; keys are snake_cased, null/undefined values are skipped. */
  query?: Record<string, QueryValue>;
  /** Extra headers (e.g. `Authorization` for the image host). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Paging headers of a list response, as numbers. */
export interface Paging {
  total: number;
  totalPages: number;
  pageNumber: number;
  perPage: number;
}

function isSameOrigin(url: URL): boolean {
  return url.origin === window.location.origin;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): URL {
  const url = new URL(path, window.location.href);
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      if (value === null || value === undefined) continue;
      url.searchParams.set(toSnakeCase(key), String(value));
    }
  }
  return url;
}

/** Reads the body once: parsed JSON, null when empty, or the raw text when it is not JSON. */
async function readBody(response: Response): Promise<{ json: unknown; text: string; isJson: boolean }> {
  const text = await response.text();
  if (text.trim() === '') return { json: null, text, isJson: true };
  try {
    return { json: JSON.parse(text) as unknown, text, isJson: true };
  } catch {
    return { json: undefined, text, isJson: false };
  }
}

function messagesOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(messagesOf);
  if (typeof value === 'string') return [value];
  if (typeof value === 'object') return Object.values(value).flatMap(messagesOf);
  return [String(value)];
}

/** Turns the server's `{errors: [{field: message}, ...]}` into messages and a field map. */
export function flattenErrors(body: unknown): { messages: string[]; fields: Record<string, string[]> } {
  const messages: string[] = [];
  const fields: Record<string, string[]> = {};
  const list = body !== null && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(list)) return { messages, fields };
  for (const entry of list) {
    if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
        const found = messagesOf(value);
        messages.push(...found);
        const field = toCamelCase(key);
        fields[field] = [...(fields[field] ?? []), ...found];
      }
    } else {
      messages.push(...messagesOf(entry));
    }
  }
  return { messages, fields };
}

function statusLine(response: Response): string {
  const text = response.statusText ? ` ${response.statusText}` : '';
  return `Request failed with status ${response.status}${text}`;
}

/** Sends one request; resolves with the camelCased body, rejects with an ApiError. */
export async function request<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  options: ApiOptions = {},
): Promise<ApiResponse<T>> {
  const url = buildUrl(path, options.query);
  const sameOrigin = isSameOrigin(url);
  const isRaw =
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob);

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (!isRaw) headers['Content-Type'] = 'application/json';
  if (sameOrigin) {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  Object.assign(headers, options.headers);

  const init: RequestInit = {
    method,
    headers,
    credentials: sameOrigin ? 'include' : 'omit',
  };
  if (options.signal) init.signal = options.signal;
  if (body !== undefined) init.body = isRaw ? (body as FormData | Blob) : JSON.stringify(snakeKeys(body));

  let response: Response;
  try {
    response = await fetch(sameOrigin ? url.pathname + url.search : url.toString(), init);
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name === 'AbortError') throw error;
    throw new ApiError(0, ['Could not reach the server. Check your connection and try again.']);
  }

  const { json, text, isJson } = await readBody(response);
  if (!response.ok) {
    const { messages, fields } = isJson ? flattenErrors(json) : { messages: [], fields: {} };
    if (messages.length === 0) {
      const plain = !isJson && text.length <= 200 && !text.trimStart().startsWith('<') ? text.trim() : '';
      messages.push(plain ? `${statusLine(response)}: ${plain}` : statusLine(response));
    }
    throw new ApiError(response.status, messages, fields, isJson ? camelKeys(json) : null);
  }
  if (!isJson) {
    throw new ApiError(response.status, [`Unexpected response from the server (status ${response.status}, not JSON)`]);
  }
  return { data: camelKeys<T>(json), headers: response.headers, status: response.status };
}

/** The call helpers used by every feature's api module. */
export const api = {
  get: <T = unknown>(path: string, options?: ApiOptions) => request<T>('GET', path, undefined, options),
  post: <T = unknown>(path: string, body: unknown = {}, options?: ApiOptions) =>
    request<T>('POST', path, body, options),
  put: <T = unknown>(path: string, body: unknown = {}, options?: ApiOptions) => request<T>('PUT', path, body, options),
  delete: <T = unknown>(path: string, options?: ApiOptions) => request<T>('DELETE', path, undefined, options),
};

function headerNumber(headers: Headers, name: string, fallback: number): number {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

/** Reads the paging headers (`total`, `totalPages`, `pageNumber`, `perPage`) of a list response. */
export function paging(headers: Headers): Paging {
  return {
    total: headerNumber(headers, 'total', 0),
    totalPages: headerNumber(headers, 'totalPages', 1),
    pageNumber: headerNumber(headers, 'pageNumber', 1),
    perPage: headerNumber(headers, 'perPage', 0),
  };
}
