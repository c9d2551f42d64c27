// A stand-in for the server behind `fetch` in component tests: answers by "METHOD /path" and
// records every request. A request no handler claims gets a 404 (and shows up in `requests`).
import { vi } from 'vitest';
import { fixtureRules } from './block-rules-fixture';
import { fixturePostRules } from './tag-rules-fixture';
import { fixtureScheduleRules } from './schedule-rules-fixture';

/** One request the app sent. */
export interface SentRequest {
  method: string;
  /** Path and query, e.g. `/api/my/blogs/1`. */
  path: string;
  headers: Headers;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  /** The body as sent, e.g. the File of an upload. */
  rawBody: RequestInit['body'];
}

export type Handler = (request: SentRequest) => Response | Promise<Response>;

/** A JSON response, like the server's. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** One page of a paged list, with the server's paging headers (`total`, `totalPages`, ...). */
export function paged(body: unknown, page: number, perPage: number, total: number): Response {
  const totalPages = Math.ceil(total / perPage);
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      total: String(total),
      totalPages: String(totalPages),
      pageNumber: String(page),
      perPage: String(perPage),
    },
  });
}

/** The server's error shape: `{"errors": [{field: message}, ...]}`. */
export function errors(status: number, ...entries: Record<string, string>[]): Response {
  return json({ errors: entries }, status);
}

/** Replaces `fetch` for the current test; `handlers` are keyed like `"GET /api/session"`. */
export function fakeApi(handlers: Record<string, Handler>) {
  const requests: SentRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), window.location.href);
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: SentRequest = {
      method,
      path: url.pathname + url.search,
      headers: new Headers(init.headers),
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
      rawBody: init.body,
    };
    requests.push(request);
    const handler = handlers[`${method} ${url.pathname}`];
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    return handler ? handler(request) : errors(404, { path: `no fake for ${method} ${url.pathname}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** The requests sent to `method path`. */
    sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}

/** A signed-in user and their blog, as the server describes them. */
export const alice = {
  user: { id: 1, email: 'alice@example.com', name: 'alice' },
  blog: {
    id: 7,
    url: 'http://alice.localhost:8080',
    subdomain: 'alice',
    name: 'Alice writes',
    description: '',
    listed: false,
    aiCrawlers: 'allow' as const,
    theme: { id: 1, name: 'Default' },
    favicon: { id: 3, code: '1f4dd' },
    timeZone: 'UTC',
    socialAccounts: [{ id: 1, provider: 'Local', email: 'alice@example.com', createdAt: '2026-01-01T00:00:00Z' }],
    state: 'approved' as const,
    stateReason: '',
    uploadBytes: 12_897_485,
    uploadQuotaBytes: 1024 * 1024 * 1024,
    uploadUse: '12.3 MB of 1 GB',
  },
};

/** Handlers for a signed-in owner (an admin with `isAdmin`): the session and, unless `blogId` is null, the blog. */
export function signedIn(options: { blogId?: number | null; isAdmin?: boolean } = {}): Record<string, Handler> {
  const blogId = options.blogId === undefined ? alice.blog.id : options.blogId;
  const isAdmin = options.isAdmin ?? false;
  return {
    'GET /api/session': () => json({ session: { user: alice.user, blogId, isAdmin } }),
    [`GET /api/my/blogs/${alice.blog.id}`]: () => json({ blog: alice.blog }),
  };
}

/**
 * Puts the server's config script into the page, as index.html carries it. The server always sends
 * its block rules: unless `config` has `blockRules`, they are tests/fixtures/block_rules.json's.
 */
export function injectConfig(config: Record<string, unknown>): void {
  document.getElementById('quire-config')?.remove();
  const script = document.createElement('script');
  script.id = 'quire-config';
  script.type = 'application/json';
  script.textContent = JSON.stringify({
    blockRules: fixtureRules(),
    postRules: fixturePostRules(),
    scheduleRules: fixtureScheduleRules(),
    ...config,
  });
  document.head.append(script);
}
