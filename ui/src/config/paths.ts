// Every route path of the owner app, so links and the router never spell them twice. The server
// answers index.html on each of them (docs/api.md, 'Other routes on the app host').

/** The catalog demos, in side-navigation order. */
export const catalogDemos = [
  { slug: 'button', label: 'Button' },
  { slug: 'textinput', label: 'TextInput' },
  { slug: 'textarea', label: 'TextArea' },
  { slug: 'select', label: 'Select' },
  { slug: 'checkbox', label: 'Checkbox' },
  { slug: 'panel', label: 'Panel' },
  { slug: 'modal', label: 'Modal' },
] as const;

/** Slug of one catalog demo, e.g. `textinput`. */
export type CatalogDemo = (typeof catalogDemos)[number]['slug'];

/** Route paths. Functions build paths with parameters. */
export const paths = {
  landing: '/',
  signup: '/signup',
  dashboard: '/d',
  posts: '/d/posts',
  newPost: '/d/posts/new',
  postsSearch: '/d/posts/search',
  /** Deleted posts, kept for 30 days (docs/revisions.md). */
  trash: '/d/posts/trash',
  editPost: (shortId: string) => `/d/posts/${encodeURIComponent(shortId)}/edit`,
  /** The editor's route pattern (react-router), matching `editPost(shortId)`. */
  editPostRoute: '/d/posts/:shortId/edit',
  /** Responses: fediverse replies, comments and webmentions, one queue. */
  responses: '/d/responses',
  /** Its old address (the Replies screen), sent on to `responses`. */
  oldReplies: '/d/replies',
  settings: '/d/settings',
  /** The instance admins' screen (`quire serve --admin`). */
  admin: '/d/admin',
  /** IndieAuth's consent screen: an app asks to sign in to the blog (the request in the query). */
  indieAuth: '/d/indieauth',
  signout: '/signout',
  authCallback: '/auth/callback',
  catalog: '/catalog',
  catalogDemo: (demo: CatalogDemo) => `/catalog/${demo}`,
  catalogButton: '/catalog/button',
  catalogTextInput: '/catalog/textinput',
  catalogTextArea: '/catalog/textarea',
  catalogSelect: '/catalog/select',
  catalogCheckbox: '/catalog/checkbox',
  catalogPanel: '/catalog/panel',
  catalogModal: '/catalog/modal',
} as const;

/** `/d/posts?p={n}`; page 1 omits the parameter, so the first page has one address, `/d/posts`. */
export function postsPage(page: number): string {
  return page > 1 ? `${paths.posts}?p=${page}` : paths.posts;
}

/**
 * The landing page, set to come back to `path` (an owner-area path with its query, such as an
 * app's sign-in request on the consent screen) once the visitor has signed in. The posts list
 * needs no return path: sign-in goes there anyway.
 */
export function landingReturningTo(path: string): string {
  return path === paths.posts || path === '/d' || path === '/d/'
    ? paths.landing
    : `${paths.landing}?next=${encodeURIComponent(path)}`;
}

/**
 * Where sign-in goes from a landing page with `search`: its `next` when that is an owner-area path
 * on this site (anything else, another site included, is ignored), else the posts list.
 */
export function returnPathFrom(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/d/')) return paths.posts;
  const base = 'http://quire.invalid';
  const url = new URL(next, base);
  return url.origin === base && url.pathname.startsWith('/d/') ? `${url.pathname}${url.search}` : paths.posts;
}
