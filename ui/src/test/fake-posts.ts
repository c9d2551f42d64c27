// A blog's posts behind the fake server (see fake-api.ts): list with the paging headers,
// read, create, update, delete, search, and the built-in image host. Good enough for screens;
// the real rules are tested against the real server end to end.
import type { Block, Post } from '../features/posts/api';
import { alice, errors, json, paged, signedIn, type Handler, type SentRequest } from './fake-api';

/** A post as the server would answer it; `n` makes the ids and dates distinct. */
export function samplePost(n: number, overrides: Partial<Post> = {}): Post {
  const shortId = `post${String(n).padStart(4, '0')}`;
  const title = overrides.title ?? `Post number ${n}`;
  const at = new Date(Date.UTC(2026, 0, 1, 12, 0) + n * 60_000).toISOString();
  return {
    shortId,
    permalink: `${alice.blog.url}/post-number-${n}-${shortId}`,
    title,
    publishedAt: at,
    scheduledAt: null,
    createdAt: at,
    updatedAt: at,
    body: { type: 'root', children: [{ type: 'heading', value: { text: title } }] },
    tags: [],
    page: false,
    ...overrides,
  };
}

const titleOf = (children: Block[]) => {
  const first = children.find((b) => b.type === 'heading') ?? children.find((b) => b.type === 'paragraph');
  return first && 'text' in first.value && first.value.text.trim() ? first.value.text.trim() : 'Untitled';
};

/**
 * Handlers for alice's posts (newest first), plus the signed-in session and blog. `overrides`
 * replace single handlers, e.g. to make a save fail.
 */
export function postsServer(initial: Post[] = [], overrides: Record<string, Handler> = {}) {
  const posts = [...initial];
  const base = `/api/my/blogs/${alice.blog.id}/posts`;
  let created = 0;
  const byId = (request: SentRequest) => {
    const shortId = decodeURIComponent(request.path.split('?')[0]?.split('/')[6] ?? '');
    return posts.find((p) => p.shortId === shortId);
  };
  const write = (request: SentRequest, existing?: Post): Post => {
    const {
      body,
      draft,
      tags = [],
      page = false,
      publish_at,
      visibility = 'public',
    } = request.body as {
      body: { children: Block[] };
      draft: boolean;
      tags?: string[];
      page?: boolean;
      publish_at?: string | null;
      visibility?: Post['visibility'];
    };
    const now = new Date(Date.UTC(2026, 4, 4, 10, 0) + created * 1000).toISOString();
    const title = titleOf(body.children);
    const shortId = existing?.shortId ?? `new${String(++created).padStart(5, '0')}`;
    return {
      shortId,
      permalink: `${alice.blog.url}/post-${shortId}`,
      title,
      publishedAt: existing?.publishedAt ?? (draft || publish_at ? null : now),
      scheduledAt: existing?.publishedAt || draft ? null : (publish_at ?? null),
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      body: { type: 'root', children: body.children },
      tags: tags.map((t) => t.trim().toLowerCase()),
      page,
      visibility: page ? 'public' : visibility,
    };
  };
  const blogPath = `/api/my/blogs/${alice.blog.id}`;
  const pageList = () =>
    posts
      .filter((p) => p.page)
      .map((p) => ({
        shortId: p.shortId,
        title: p.title,
        path: `/${p.title.toLowerCase()}`,
        published: p.publishedAt !== null,
      }));
  const handlers: Record<string, Handler> = {
    ...signedIn(),
    [`GET ${base}`]: (request) => {
      const query = new URL(request.path, 'http://x').searchParams;
      const page = Number(query.get('page') ?? '1');
      const size = Number(query.get('page_size') ?? '10');
      const tag = query.get('tag');
      const listed = tag ? posts.filter((p) => p.tags.includes(tag)) : posts;
      const pages = Math.max(1, Math.ceil(listed.length / size));
      if (page > pages) return errors(400, { page: `Should be from 1 to ${pages}` });
      return paged({ posts: listed.slice((page - 1) * size, page * size) }, page, size, listed.length);
    },
    [`GET ${blogPath}/tags`]: () => {
      const counts = new Map<string, number>();
      for (const p of posts) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
      const tags = [...counts].map(([name, n]) => ({ name, posts: n }));
      tags.sort((a, b) => b.posts - a.posts || a.name.localeCompare(b.name));
      return json({ tags });
    },
    [`GET ${blogPath}/pages`]: () => json({ pages: pageList() }),
    [`PUT ${blogPath}/pages`]: (request) => {
      const order = (request.body as { pages: string[] }).pages;
      const current = pageList().map((p) => p.shortId);
      if (order.length !== current.length || !current.every((id) => order.includes(id)))
        return errors(422, { pages: "Should list each of the blog's pages once" });
      const pagesInOrder = order.map((id) => posts.find((p) => p.shortId === id) as Post);
      const slots = posts.flatMap((p, i) => (p.page ? [i] : []));
      slots.forEach((slot, i) => {
        posts[slot] = pagesInOrder[i] as Post;
      });
      return json({ pages: pageList() });
    },
    [`POST ${base}`]: (request) => {
      const post = write(request);
      posts.unshift(post);
      // A post created here is edited at its own address afterwards ('Save and keep writing').
      for (const method of ['GET', 'PUT', 'DELETE']) handlers[`${method} ${base}/${post.shortId}`] ??= one;
      handlers[`POST ${base}/${post.shortId}/unpublish`] ??= unpublish;
      return json({ post }, 201);
    },
    [`POST ${base}/search`]: (request) => {
      const { query } = request.body as { query: string };
      if (!query.trim()) return errors(422, { query: "Can't be blank" });
      const word = query.trim().toLowerCase();
      return json({ posts: posts.filter((p) => JSON.stringify(p.body).toLowerCase().includes(word)) });
    },
    'POST /api/images': () => json({ data: { link: 'http://localhost:8080/media/0123abcd.png' } }),
    ...overrides,
  };
  // The fake server matches exact paths, so each starting post gets its own handlers.
  const one: Handler = (request) => {
    const found = byId(request);
    if (!found) return errors(404, { post: 'Post not found' });
    if (request.method === 'GET') return json({ post: found });
    if (request.method === 'DELETE') {
      posts.splice(posts.indexOf(found), 1);
      return json({});
    }
    const updated = write(request, found);
    posts[posts.indexOf(found)] = updated;
    return json({ post: updated });
  };
  // Unpublishing: back to a draft, its version raised (a draft answers as it is).
  const unpublish: Handler = (request) => {
    const found = posts.find((p) => p.shortId === decodeURIComponent(request.path.split('/')[6] ?? ''));
    if (!found) return errors(404, { post: 'Post not found' });
    if (found.publishedAt === null && !found.scheduledAt) return json({ post: found });
    const draft: Post = { ...found, publishedAt: null, scheduledAt: null, version: (found.version ?? 1) + 1 };
    posts[posts.indexOf(found)] = draft;
    return json({ post: draft });
  };
  // Preview links: one per post, its URL shown once.
  const links = new Map<string, string>();
  const previewLink: Handler = (request) => {
    const shortId = decodeURIComponent(request.path.split('/')[6] ?? '');
    const found = posts.find((p) => p.shortId === shortId);
    if (!found) return errors(404, { post: 'Post not found' });
    if (request.method === 'GET') {
      const createdAt = links.get(shortId);
      return json({ previewLink: createdAt ? { createdAt } : null });
    }
    if (request.method === 'DELETE') {
      links.delete(shortId);
      return json({});
    }
    if (found.publishedAt) return errors(422, { previewLink: 'The post is published: share its permalink instead' });
    const createdAt = new Date(Date.UTC(2026, 4, 4, 11, 0) + links.size * 1000).toISOString();
    links.set(shortId, createdAt);
    return json({ previewLink: { url: `${alice.blog.url}/preview/${'ab'.repeat(16)}${links.size}`, createdAt } }, 201);
  };
  for (const post of initial) {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const key = `${method} ${base}/${post.shortId}`;
      handlers[key] ??= one;
    }
    for (const method of ['GET', 'POST', 'DELETE']) {
      handlers[`${method} ${base}/${post.shortId}/preview_link`] ??= previewLink;
    }
    handlers[`POST ${base}/${post.shortId}/unpublish`] ??= unpublish;
  }
  return { handlers, posts };
}
