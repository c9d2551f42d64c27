export { createBlog, fetchBlog } from './api';
export type { Blog, Favicon, SocialAccount, Theme } from './api';
export { BLOG_REFRESH_KEY, refreshBlog, refreshBlogInBackground } from './blog-refresh';
export { BlogCreationForm } from './blog-creation-form';
export type { BlogCreationFormProps } from './blog-creation-form';
export { captureInviteLink, forgetInvite, storedInvite } from './invite-link';
