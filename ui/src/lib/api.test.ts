import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, flattenErrors, paging } from './api';
import { camelKeys, snakeKeys, toCamelCase, toSnakeCase } from './case';

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}

function stubFetch(response: Response | (() => Response | Promise<Response>)) {
  const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>(async () =>
    typeof response === 'function' ? response() : response,
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function lastCall(fetchMock: ReturnType<typeof stubFetch>): { url: string; init: RequestInit; headers: Headers } {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [input, init = {}] = call;
  return { url: String(input), init, headers: new Headers(init.headers) };
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(clearCookies);
afterEach(clearCookies);

describe('key case conversion', () => {
  it('converts single keys both ways', () => {
    expect(toSnakeCase('faviconId')).toBe('favicon_id');
    expect(toSnakeCase('idToken')).toBe('id_token');
    expect(toSnakeCase('imgurClientID')).toBe('imgur_client_id');
    expect(toSnakeCase('children.3')).toBe('children.3');
    expect(toCamelCase('published_at')).toBe('publishedAt');
    expect(toCamelCase('social_accounts_count')).toBe('socialAccountsCount');
    expect(toCamelCase('children.3')).toBe('children.3');
    expect(toCamelCase('_private')).toBe('_private');
  });

  it('walks nested objects and arrays but leaves values alone', () => {
    const input = { blogId: 1, body: { type: 'root', children: [{ type: 'link', value: { linkUrl: 'a_b' } }] } };
    expect(snakeKeys(input)).toEqual({
      blog_id: 1,
      body: { type: 'root', children: [{ type: 'link', value: { link_url: 'a_b' } }] },
    });
    expect(camelKeys({ social_accounts: [{ created_at: 'x_y' }], n: null })).toEqual({
      socialAccounts: [{ createdAt: 'x_y' }],
      n: null,
    });
  });
});

describe('api requests', () => {
  it('sends a snake_case JSON body with credentials, JSON headers and the CSRF token from the cookie', async () => {
    document.cookie = 'other=1; path=/';
    document.cookie = 'csrf_token=tok%2Fen-123; path=/';
    const fetchMock = stubFetch(
      jsonResponse({ session: { blog_id: 7, user: { display_name: 'A' } } }, { status: 201 }),
    );

    const response = await api.post<{ session: { blogId: number; user: { displayName: string } } }>('/api/sessions', {
      idToken: 'jwt',
      signup: true,
    });

    const { url, init, headers } = lastCall(fetchMock);
    expect(url).toBe('/api/sessions');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(String(init.body))).toEqual({ id_token: 'jwt', signup: true });
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('CSRF-Token')).toBe('tok/en-123');
    expect(response.status).toBe(201);
    expect(response.data.session.blogId).toBe(7);
    expect(response.data.session.user.displayName).toBe('A');
  });

  it('reads the CSRF cookie at call time, so a cookie set after load is used', async () => {
    const fetchMock = stubFetch(() => jsonResponse({}));
    await api.get('/api/themes');
    expect(lastCall(fetchMock).headers.has('CSRF-Token')).toBe(false);
    document.cookie = 'csrf_token=later; path=/';
    await api.delete('/api/my/blogs/1');
    expect(lastCall(fetchMock).headers.get('CSRF-Token')).toBe('later');
    expect(lastCall(fetchMock).init.method).toBe('DELETE');
    expect(lastCall(fetchMock).init.body).toBeUndefined();
  });

  it('posts an empty object when no body is given (install, signout)', async () => {
    const fetchMock = stubFetch(() => jsonResponse({}));
    await api.post('/d/signout');
    expect(lastCall(fetchMock).init.body).toBe('{}');
    await api.put('/api/my/blogs/1', { name: 'New' });
    expect(lastCall(fetchMock).init.body).toBe('{"name":"New"}');
  });

  it('snake_cases query keys and skips empty values', async () => {
    const fetchMock = stubFetch(jsonResponse({ favicons: [] }));
    await api.get('/api/favicons', { query: { page: 2, pageSize: 100, missing: undefined, none: null } });
    expect(lastCall(fetchMock).url).toBe('/api/favicons?page=2&page_size=100');
  });

  it('returns null data for an empty 204 body', async () => {
    stubFetch(new Response(null, { status: 204 }));
    const response = await api.delete('/api/my/blogs/1/posts/abc');
    expect(response.data).toBeNull();
    expect(response.status).toBe(204);
  });

  it('sends FormData untouched, without a JSON content type', async () => {
    document.cookie = 'csrf_token=abc; path=/';
    const fetchMock = stubFetch(jsonResponse({ data: { link: 'http://localhost/media/x.png' } }));
    const form = new FormData();
    form.append('image', new Blob(['x'], { type: 'image/png' }), 'x.png');
    form.append('type', 'file');

    const response = await api.post<{ data: { link: string } }>('/api/images', form);

    const { init, headers } = lastCall(fetchMock);
    expect(init.body).toBe(form);
    expect(headers.has('Content-Type')).toBe(false);
    expect(headers.get('CSRF-Token')).toBe('abc');
    expect(headers.get('Accept')).toBe('application/json');
    expect(response.data.data.link).toBe('http://localhost/media/x.png');
  });

  it('sends a File as the body itself, with the CSRF token and no JSON content type', async () => {
    document.cookie = 'csrf_token=abc; path=/';
    const fetchMock = stubFetch(jsonResponse({ import: { id: 1 } }, { status: 202 }));
    const file = new File(['<rss/>'], 'blog.xml', { type: 'text/xml' });

    await api.post('/api/my/blogs/7/imports?fileName=blog.xml', file);

    const { url, init, headers } = lastCall(fetchMock);
    expect(url).toBe('/api/my/blogs/7/imports?fileName=blog.xml');
    expect(init.body).toBe(file);
    expect(headers.has('Content-Type')).toBe(false);
    expect(headers.get('CSRF-Token')).toBe('abc');
  });

  it('sends no cookies and no CSRF token to another origin', async () => {
    document.cookie = 'csrf_token=secret; path=/';
    const fetchMock = stubFetch(jsonResponse({ data: { link: 'https://i.example.com/a.png' } }));
    await api.post('https://api.example.com/3/image', new FormData(), {
      headers: { Authorization: 'Client-ID abc' },
    });
    const { url, init, headers } = lastCall(fetchMock);
    expect(url).toBe('https://api.example.com/3/image');
    expect(init.credentials).toBe('omit');
    expect(headers.has('CSRF-Token')).toBe(false);
    expect(headers.get('Authorization')).toBe('Client-ID abc');
  });
});

describe('api errors', () => {
  it('flattens the errors list into one ApiError with status, messages and fields', async () => {
    stubFetch(
      jsonResponse(
        { errors: [{ 'children.2': "Can't be blank" }, { subdomain: 'Is taken' }, { published_at: ['Bad', 'Worse'] }] },
        { status: 422 },
      ),
    );
    const error = await api.post('/api/my/blogs/1/posts', { body: {} }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(422);
    expect(apiError.messages).toEqual(["Can't be blank", 'Is taken', 'Bad', 'Worse']);
    expect(apiError.message).toBe("Can't be blank\nIs taken\nBad\nWorse");
    expect(apiError.fields).toEqual({
      'children.2': ["Can't be blank"],
      subdomain: ['Is taken'],
      publishedAt: ['Bad', 'Worse'],
    });
    expect(apiError.messagesFor('children.2')).toEqual(["Can't be blank"]);
    expect(apiError.messagesFor('children.0')).toEqual([]);
  });

  it('keeps several messages for the same field, and entries with several keys', () => {
    expect(flattenErrors({ errors: [{ subdomain: 'Too short' }, { subdomain: 'Reserved', name: 'Blank' }] })).toEqual({
      messages: ['Too short', 'Reserved', 'Blank'],
      fields: { subdomain: ['Too short', 'Reserved'], name: ['Blank'] },
    });
    expect(flattenErrors({ nothing: true })).toEqual({ messages: [], fields: {} });
  });

  it('still raises an ApiError with a useful message for a non-JSON error body', async () => {
    stubFetch(new Response('upstream timed out', { status: 502, statusText: 'Bad Gateway' }));
    const error = (await api.get('/api/themes').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.message).toBe('Request failed with status 502 Bad Gateway: upstream timed out');
    expect(error.fields).toEqual({});
  });

  it('does not echo an HTML error page', async () => {
    stubFetch(new Response('<html><body>oops</body></html>', { status: 500 }));
    const error = (await api.get('/api/themes').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(500);
    expect(error.messages).toEqual(['Request failed with status 500']);
  });

  it('uses the status when a JSON error has no errors list', async () => {
    stubFetch(jsonResponse({ message: 'nope' }, { status: 404 }));
    const error = (await api.get('/api/my/blogs/9').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(404);
    expect(error.message).toBe('Request failed with status 404');
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    stubFetch(new Response('<!doctype html>', { status: 200 }));
    const error = (await api.get('/api/themes').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(200);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = (await api.get('/api/themes').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/could not reach the server/i);
  });

  it('lets an abort pass through unchanged', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(abort)),
    );
    await expect(api.get('/api/themes')).rejects.toBe(abort);
  });
});

describe('paging', () => {
  it('reads the paging headers as numbers', async () => {
    stubFetch(
      jsonResponse({ posts: [] }, { headers: { total: '23', totalPages: '3', pageNumber: '2', perPage: '10' } }),
    );
    const { headers } = await api.get('/api/my/blogs/1/posts', { query: { page: 2, pageSize: 10 } });
    expect(paging(headers)).toEqual({ total: 23, totalPages: 3, pageNumber: 2, perPage: 10 });
  });

  it('falls back to one page when headers are missing or garbage', () => {
    expect(paging(new Headers({ total: 'x' }))).toEqual({ total: 0, totalPages: 1, pageNumber: 1, perPage: 0 });
  });
});
