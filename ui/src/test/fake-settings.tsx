// What the tests of the settings panels share: a fake server that remembers the blog, and the
// settings screen in a memory router under a stand-in owner area, whose blog really is fetched again
// when a panel refreshes it (BLOG_REFRESH_KEY).
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { fetchBlog, BLOG_REFRESH_KEY, type Blog } from '../features/blogs';
import type { Fediverse } from '../features/fediverse/api';
import type { BlogExport } from '../features/import-export/api';
import { SettingsScreen } from '../features/settings';
import { useRefreshKey } from '../lib/refresh';
import { alice, errors, fakeApi, json, paged, type Handler } from './fake-api';
import { renderRoutes } from './render-route';

export const themes = [
  { id: 1, name: 'Default' },
  { id: 2, name: 'Serif' },
  { id: 3, name: 'Mono' },
  { id: 4, name: 'Dark' },
];

/** The zones the fake server offers (the real one offers several hundred). */
export const timeZones = ['America/New_York', 'Asia/Tokyo', 'Europe/Paris', 'UTC'];

/** `count` icons of `page` with distinct codes (page 2, index 5 -> code `1f305`). */
export function faviconsOf(page: number, count = 3) {
  return Array.from({ length: count }, (_, i) => ({
    id: page * 1000 + i,
    code: (0x1f300 + page * 0x10 + i).toString(16),
  }));
}

/** A JSON answer with the paging headers the server sends. */
export function pagedJson(body: unknown, page: number, totalPages: number, perPage = 100): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      total: String(totalPages * perPage),
      totalPages: String(totalPages),
      pageNumber: String(page),
      perPage: String(perPage),
    },
  });
}

/** An export of alice's blog: a Quire archive, queued, unless `overrides` say otherwise. */
export function anExport(overrides: Partial<BlogExport> = {}): BlogExport {
  return {
    id: 5,
    format: 'archive',
    state: 'queued',
    progress: { done: 0, total: 0 },
    size: null,
    fileName: 'alice-20261122.quire.zip',
    downloadUrl: null,
    error: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    finishedAt: null,
    expiresAt: null,
    ...overrides,
  };
}

/** alice's Fediverse settings: no followers, nothing blocked, unless `overrides` say otherwise. */
export function aFediverse(overrides: Partial<Fediverse> = {}): Fediverse {
  return {
    handle: '@alice@localhost:8080',
    actorUrl: 'http://alice.localhost:8080/_quire/ap/actor',
    approveFollowers: false,
    followerCount: 0,
    pendingCount: 0,
    blockedDomains: [],
    givenUp: [],
    refused: [],
    ...overrides,
  };
}

/** A fake quire that keeps the blog's state; `overrides` replace or add handlers. */
export function settingsServer(overrides: Record<string, Handler> = {}, start: Blog = alice.blog) {
  const state = { blog: structuredClone(start), css: '', previews: 0 };
  const path = `/api/my/blogs/${start.id}`;
  const server = fakeApi({
    [`GET ${path}`]: () => json({ blog: state.blog }),
    [`PUT ${path}`]: (request) => {
      state.blog = { ...state.blog, name: (request.body as { name: string }).name.trim() };
      return json({ blog: state.blog });
    },
    [`PUT ${path}/description`]: (request) => {
      const description = (request.body as { description: string }).description.trim();
      if ([...description].length > 300) return errors(422, { description: 'Should be at most 300 characters' });
      state.blog = { ...state.blog, description };
      return json({ blog: state.blog });
    },
    [`PUT ${path}/listed`]: (request) => {
      state.blog = { ...state.blog, listed: (request.body as { listed: boolean }).listed };
      return json({ blog: state.blog });
    },
    [`PUT ${path}/ai-crawlers`]: (request) => {
      const aiCrawlers = (request.body as { ai_crawlers: string }).ai_crawlers;
      if (aiCrawlers !== 'allow' && aiCrawlers !== 'disallow')
        return errors(422, { aiCrawlers: 'Choose allow or disallow' });
      state.blog = { ...state.blog, aiCrawlers };
      return json({ blog: state.blog });
    },
    'GET /api/themes': () => json({ themes }),
    [`PUT ${path}/theme`]: (request) => {
      const id = (request.body as { theme_id: number }).theme_id;
      state.blog = { ...state.blog, theme: themes.find((theme) => theme.id === id) ?? state.blog.theme };
      return json({ blog: state.blog });
    },
    [`GET ${path}/css`]: () => json({ css: state.css }),
    [`PUT ${path}/css`]: (request) => {
      const css = (request.body as { css: string }).css;
      if (css.includes('@import')) return errors(422, { css: 'Line 1: `@import` is not allowed' });
      state.css = css;
      return json({ css });
    },
    [`POST ${path}/css/check`]: (request) => {
      const css = (request.body as { css: string }).css;
      if (css.includes('@import')) return errors(422, { css: 'Line 1: `@import` is not allowed' });
      state.previews += 1;
      return json({ preview: `${start.url}/css-preview/token${state.previews}` });
    },
    'GET /api/favicons': (request) => {
      const page = Number(new URL(request.path, 'http://x').searchParams.get('page') ?? '1');
      return pagedJson({ favicons: faviconsOf(page) }, page, 3);
    },
    [`PUT ${path}/favicon`]: (request) => {
      const id = (request.body as { favicon_id: number }).favicon_id;
      const page = Math.floor(id / 1000);
      state.blog = { ...state.blog, favicon: faviconsOf(page).find((f) => f.id === id) ?? state.blog.favicon };
      return json({ blog: state.blog });
    },
    'GET /api/time_zones': () => json({ timeZones }),
    [`PUT ${path}/time_zone`]: (request) => {
      const zone = (request.body as { time_zone: string }).time_zone;
      if (!timeZones.includes(zone)) {
        return errors(422, { timeZone: 'Unknown time zone: choose one from the list, such as Europe/Paris' });
      }
      state.blog = { ...state.blog, timeZone: zone };
      return json({ blog: state.blog });
    },
    [`GET ${path}/addons/installed`]: () => json({ addons: [] }),
    [`GET ${path}/addons/uninstalled`]: () => json({ addons: [] }),
    [`GET ${path}/exports`]: () => json({ exports: [] }),
    [`GET ${path}/imports`]: () => json({ imports: [] }),
    [`GET ${path}/tokens`]: () => json({ tokens: [] }),
    [`GET ${path}/domain`]: () => json({ domain: null }),
    [`GET ${path}/fediverse`]: () => json({ fediverse: aFediverse() }),
    [`GET ${path}/fediverse/followers`]: () => paged({ followers: [] }, 1, 50, 0),
    ...overrides,
  });
  return { ...server, state };
}

/** The owner area's part: it shows the blog's name and loads the blog again on `refreshBlog()`. */
function Harness({ initial, email }: { initial: Blog; email: boolean }) {
  const [blog, setBlog] = useState(initial);
  const reloadBlog = useCallback(async () => {
    setBlog(await fetchBlog(initial.id));
  }, [initial.id]);
  useRefreshKey(BLOG_REFRESH_KEY, reloadBlog);
  return (
    <>
      <p data-testid="shell-name">{blog.name}</p>
      <SettingsScreen blog={blog} providerName="Local" email={email} />
    </>
  );
}

/**
 * Renders the settings screen at /d/settings; `/` shows a 'Landing' heading. `email` is the page
 * config's (the instance sends email), false unless given.
 */
export function renderSettings(
  options: { blog?: Blog; advanceTimers?: (ms: number) => unknown; email?: boolean } = {},
) {
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const { history } = renderRoutes(
    [
      { path: '/d/settings', element: <Harness initial={options.blog ?? alice.blog} email={options.email ?? false} /> },
      { path: '/', element: <h1>Landing</h1> },
    ],
    '/d/settings',
  );
  return { history, user };
}
