// Posts: the list, the editor for new and existing posts, and search.
import './posts.css';

export { EditPost } from './edit-post';
export { PostEditor } from './post-editor';
export { PagesPanel } from './pages-panel';
export { PostList } from './post-list';
export { PostSearch } from './post-search';
