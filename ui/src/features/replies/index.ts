// Replies: the replies from the fediverse to the blog's posts, held for approval or shown.
import './replies.css';

export { RepliesScreen } from './replies-screen';
