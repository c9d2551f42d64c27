// A post's history (the editor's History panel) and the blog's trash (docs/revisions.md).
import './history.css';
export { HistoryPanel } from './history-panel';
export { TrashLink, TrashList } from './trash-list';
