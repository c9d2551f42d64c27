// The post editors, a chunk of their own: the post list does not need them (index.ts `loadEditors`).
export { EditPost } from './edit-post';
export { PostEditor } from './post-editor';
