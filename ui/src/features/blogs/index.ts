export { createBlog, fetchBlog } from './api';
export type { Blog, Favicon, SocialAccount, Theme } from './api';
export { BlogCreationForm } from './blog-creation-form';
export type { BlogCreationFormProps } from './blog-creation-form';
