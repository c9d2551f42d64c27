// Responses: the one queue of what readers sent the blog's posts (fediverse replies, comments,
// webmentions), and the Comments panel of Settings.
import './responses.css';

export { ResponsesScreen } from './responses-screen';
export { CommentsPanel } from './comments-panel';
export { CommentsSwitch } from './comments-switch';
