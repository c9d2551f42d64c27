// The calls behind the Blog panel (docs/api.md, 'The blog', 'Themes, favicons and time zones'):
// rename, description, landing page listing, theme, time zone and tab icon.
import type { BlogAnswer } from '../../api-types/blogs';
import type { CssCheckAnswer, CustomCssAnswer } from '../../api-types/custom-css';
import type { Favicons } from '../../api-types/favicons';
import type { Themes } from '../../api-types/themes';
import type { TimeZones } from '../../api-types/time-zones';
import { api, paging, type Paging } from '../../lib/api';
import type { Blog, Favicon, Theme } from '../blogs';

/** Icons per page of the picker: several screens of the grid per call. */
export const FAVICONS_PAGE_SIZE = 100;

/** One page of the icon picker and where it stands in the whole list. */
export interface FaviconPage {
  favicons: Favicon[];
  paging: Paging;
}

const blogPath = (blogId: number) => `/api/my/blogs/${blogId}`;

/** Renames the blog; a 422 carries the message under `name`. */
export async function renameBlog(blogId: number, name: string): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(blogPath(blogId), { name });
  return data.blog;
}

/** Sets the description under the blog's name ('' clears it); a 422 carries the message under `description`. */
export async function setDescription(blogId: number, description: string): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(`${blogPath(blogId)}/description`, { description });
  return data.blog;
}

/** Lists the blog's newest posts on the instance's landing page, or takes them off. */
export async function setListed(blogId: number, listed: boolean): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(`${blogPath(blogId)}/listed`, { listed });
  return data.blog;
}

/** Lets AI crawlers use the blog (`allow`), or asks them not to (`disallow`). */
export async function setAiCrawlers(blogId: number, aiCrawlers: Blog['aiCrawlers']): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(`${blogPath(blogId)}/ai-crawlers`, { aiCrawlers });
  return data.blog;
}

/** Every theme a blog can use. */
export async function fetchThemes(signal?: AbortSignal): Promise<Theme[]> {
  const { data } = await api.get<Themes>('/api/themes', signal ? { signal } : {});
  return data.themes;
}

/** Switches the public blog to another theme; a 422 carries the message under `themeId`. */
export async function setTheme(blogId: number, themeId: number): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(`${blogPath(blogId)}/theme`, { themeId });
  return data.blog;
}

/** Every IANA time zone the server offers, e.g. `Europe/Paris`, in alphabetical order. */
export async function fetchTimeZones(signal?: AbortSignal): Promise<string[]> {
  const { data } = await api.get<TimeZones>('/api/time_zones', signal ? { signal } : {});
  return data.timeZones;
}

/** Shows the public blog's dates in `timeZone`; a 422 carries the message under `timeZone`. */
export async function setTimeZone(blogId: number, timeZone: string): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(`${blogPath(blogId)}/time_zone`, { timeZone });
  return data.blog;
}

/** One page of the icons (pages start at 1); with a `search`, of those it finds by name or keyword. */
export async function fetchFavicons(page: number, signal?: AbortSignal, search = ''): Promise<FaviconPage> {
  const { data, headers } = await api.get<Favicons>('/api/favicons', {
    query: { page, pageSize: FAVICONS_PAGE_SIZE, ...(search ? { query: search } : {}) },
    ...(signal ? { signal } : {}),
  });
  return { favicons: data.favicons, paging: paging(headers) };
}

/** Makes `faviconId` the blog's tab icon. */
export async function setFavicon(blogId: number, faviconId: number): Promise<Blog> {
  const { data } = await api.put<BlogAnswer>(`${blogPath(blogId)}/favicon`, { faviconId });
  return data.blog;
}

/** The blog's custom CSS ('' for none), exactly as stored. */
export async function fetchCustomCss(blogId: number, signal?: AbortSignal): Promise<string> {
  const { data } = await api.get<CustomCssAnswer>(`${blogPath(blogId)}/css`, signal ? { signal } : {});
  return data.css;
}

/** Stores the blog's custom CSS ('' clears it); a 422 carries the message, naming the line, under `css`. */
export async function saveCustomCss(blogId: number, css: string): Promise<string> {
  const { data } = await api.put<CustomCssAnswer>(`${blogPath(blogId)}/css`, { css });
  return data.css;
}

/**
 * Checks custom CSS as a save would, storing nothing; a 422 carries the save's message under `css`.
 * A pass answers the address of the blog's home page with that CSS (its live preview, for ten minutes).
 */
export async function checkCustomCss(blogId: number, css: string, signal?: AbortSignal): Promise<string> {
  const { data } = await api.post<CssCheckAnswer>(`${blogPath(blogId)}/css/check`, { css }, signal ? { signal } : {});
  return data.preview;
}
