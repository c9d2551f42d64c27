// The blog's posts (docs/api.md, 'Posts' and 'Images'): list, read, create, update, delete,
// search, and the image upload the editor's image blocks use.
import type { AppConfig } from '../../config/app-config';
import type {
  Block,
  ManyPosts,
  OnePost,
  PastedBlocks,
  Post as PostAnswer,
  PostBody,
  PostPreview,
  StalePost,
} from '../../api-types/posts';
import type {
  CreatedPreviewLink,
  NewPreviewLink,
  PreviewLinkSince,
  PreviewLinkState,
} from '../../api-types/preview-links';
import { api, ApiError, paging, type Paging } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Block, PastedBlocks, PostBody, PostMail, PostPreview } from '../../api-types/posts';

/** The counts of a post, its comments switch, its visibility and its version, which the server always sends and the app also shows without (a post without a visibility is public; one without a version is saved unchecked). */
type Reactions = 'likes' | 'boosts' | 'replies' | 'responses' | 'commentsClosed' | 'visibility' | 'version';

/** A post, as the server describes it; the app also takes one without its fediverse counts. */
export type Post = Omit<PostAnswer, Reactions> & Partial<Pick<PostAnswer, Reactions>>;

/** Who finds a published post: everyone ('public') or those given its link ('unlisted'). */
export type Visibility = PostAnswer['visibility'];

/** One block type. The list the server takes, in its order, is the page config's `blockRules.blockTypes`. */
export type BlockType = Block['type'];

/** What create and update send: the blocks (as the post's body), the draft flag and when to publish. */
export interface PostInput {
  blocks: Block[];
  draft: boolean;
  /** Its tags (the server normalizes them); none when absent. */
  tags?: string[];
  /** Whether it is a page. */
  page?: boolean;
  /** With the draft flag off, publish at this time (UTC, RFC 3339) instead of now. */
  publishAt?: string | null;
  /** 'public' (the default) or 'unlisted' (docs/unlisted.md). */
  visibility?: Visibility;
  /** On the save that makes a published unlisted post public: announce it to followers as new. */
  announce?: boolean;
  /** On an update: the version the edit is based on; a newer one on the server refuses it (409, docs/edit-conflicts.md). */
  version?: number;
}

/** Posts per page of the list. */
export const POSTS_PAGE_SIZE = 10;

/** One page of the post list, newest first, drafts included. */
export interface PostsPage {
  posts: Post[];
  paging: Paging;
}

const postsPath = (blogId: number) => `/api/my/blogs/${blogId}/posts`;
const postPath = (blogId: number, shortId: string) => `${postsPath(blogId)}/${encodeURIComponent(shortId)}`;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

function payload({
  blocks,
  draft,
  tags = [],
  page = false,
  publishAt = null,
  visibility = 'public',
  announce = false,
  version,
}: PostInput) {
  const body: PostBody = { type: 'root', children: blocks };
  const sent = {
    body,
    draft,
    tags,
    page,
    visibility,
    ...(announce ? { announce } : {}),
    ...(version !== undefined ? { version } : {}),
  };
  // publishAt is left out unless set: a save without it publishes now, as before scheduling existed.
  return publishAt ? { ...sent, publishAt } : sent;
}

/** One page of the blog's posts. */
export async function fetchPosts(blogId: number, page: number, signal?: AbortSignal, tag?: string): Promise<PostsPage> {
  const { data, headers } = await api.get<ManyPosts>(postsPath(blogId), {
    query: { page, pageSize: POSTS_PAGE_SIZE, ...(tag ? { tag } : {}) },
    ...withSignal(signal),
  });
  return { posts: data.posts, paging: paging(headers) };
}

/** One post by its short id. */
export async function fetchPost(blogId: number, shortId: string, signal?: AbortSignal): Promise<Post> {
  const { data } = await api.get<OnePost>(postPath(blogId, shortId), withSignal(signal));
  return data.post;
}

/** Creates a post; with the draft flag off it is published at once. */
export async function createPost(blogId: number, input: PostInput): Promise<Post> {
  const { data } = await api.post<OnePost>(postsPath(blogId), payload(input));
  return data.post;
}

/** Replaces a post's blocks; with the draft flag off an unpublished post is published. */
export async function updatePost(blogId: number, shortId: string, input: PostInput): Promise<Post> {
  const { data } = await api.put<OnePost>(postPath(blogId, shortId), payload(input));
  return data.post;
}

/**
 * The post as it is now on the server when `error` is an update's 409 (it was saved elsewhere
 * since the version the update was based on); null for any other error.
 */
export function conflictingPost(error: unknown): Post | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as Partial<StalePost> | null;
  return body && typeof body === 'object' && body.post && typeof body.post === 'object' ? body.post : null;
}

/** Takes a published (or scheduled) post back to a draft; answers it as it now is (docs/api.md 8.6.1). */
export async function unpublishPost(blogId: number, shortId: string): Promise<Post> {
  const { data } = await api.post<OnePost>(`${postPath(blogId, shortId)}/unpublish`, {});
  return data.post;
}

/** Deletes a post for good. */
export async function deletePost(blogId: number, shortId: string): Promise<void> {
  await api.delete(postPath(blogId, shortId));
}

/** Renders blocks as readers will see them, without saving them (a 422 lists the blocks' problems). */
export async function previewPost(blogId: number, blocks: Block[], signal?: AbortSignal): Promise<PostPreview> {
  const body: PostBody = { type: 'root', children: blocks };
  const { data } = await api.post<PostPreview>(`/api/my/blogs/${blogId}/preview`, { body }, withSignal(signal));
  return data;
}

/** Full-text search in the blog's posts; `query` must not be blank. */
export async function searchPosts(blogId: number, query: string, signal?: AbortSignal): Promise<Post[]> {
  const { data } = await api.post<ManyPosts>(`${postsPath(blogId)}/search`, { query }, withSignal(signal));
  return data.posts;
}

/** A post's preview link: the URL only right after it is created (the server keeps only its hash). */
export type PreviewLink = PreviewLinkSince & Partial<NewPreviewLink>;

const previewPath = (blogId: number, shortId: string) => `${postPath(blogId, shortId)}/preview_link`;

/** The post's preview link, if it has one (without its URL). */
export async function fetchPreviewLink(
  blogId: number,
  shortId: string,
  signal?: AbortSignal,
): Promise<PreviewLink | null> {
  const { data } = await api.get<PreviewLinkState>(previewPath(blogId, shortId), withSignal(signal));
  return data.previewLink;
}

/** A new secret preview link for a draft or scheduled post, replacing its old one. */
export async function createPreviewLink(blogId: number, shortId: string): Promise<PreviewLink> {
  const { data } = await api.post<CreatedPreviewLink>(previewPath(blogId, shortId), {});
  return data.previewLink;
}

/** Revokes the post's preview link: it answers 404 from then on. */
export async function revokePreviewLink(blogId: number, shortId: string): Promise<void> {
  await api.delete(previewPath(blogId, shortId));
}

/** The third-party image host's (Imgur's) upload endpoint. */
const IMGUR_UPLOAD_URL = 'https://api.imgur.com/3/image';

/**
 * Where an image upload goes: the third-party image host when a client ID is configured
 * (`--imgur-client-id`), else this server's own `/api/images`, which answers the same way
 * (docs/api.md, 'Images'), so the editor has one code path.
 */
export function imageUploadTarget(config: Pick<AppConfig, 'imgurClientId'>): {
  url: string;
  headers: Record<string, string>;
} {
  return config.imgurClientId
    ? { url: IMGUR_UPLOAD_URL, headers: { Authorization: `Client-ID ${config.imgurClientId}` } }
    : { url: '/api/images', headers: {} };
}

/** Uploads one image file and resolves with its public link (the reply's `data.link`). */
export async function uploadImage(file: File, config: Pick<AppConfig, 'imgurClientId'>): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  form.append('type', 'file');
  const { url, headers } = imageUploadTarget(config);
  const { data } = await api.post<{ data?: { link?: unknown } }>(url, form, { headers });
  const link = data?.data?.link;
  if (typeof link !== 'string' || link === '') throw new Error('The image host did not answer with a link');
  return link;
}

/** What a paste into a paragraph holds: its Markdown text, or the clipboard's HTML. */
export type Pasted = { markdown: string } | { html: string };

/** The blocks the import's converter makes of a paste (nothing is stored). */
export async function convertPaste(blogId: number, pasted: Pasted, signal?: AbortSignal): Promise<PastedBlocks> {
  const { data } = await api.post<PastedBlocks>(`/api/my/blogs/${blogId}/convert`, pasted, withSignal(signal));
  return data;
}
