// Posts: the list, the editor for new and existing posts, and search.
import './posts.css';

/** The editors for new and existing posts (`EditPost`, `PostEditor`), fetched on first use. */
export const loadEditors = () => import('./editors');
export { PagesPanel } from './pages-panel';
export { PostList } from './post-list';
export { PostSearch } from './post-search';
export { TrashList } from './history';
