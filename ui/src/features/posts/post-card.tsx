import { Link } from 'react-router';
import { Button } from '../../components';
import { paths } from '../../config/paths';
import { amount, counted } from '../../lib/counted';
import { localClock } from '../../lib/local-time';
import type { Post, PostMail } from './api';
import { sharePost } from './share';

/** `publishedAt` as a local date and time, e.g. "May 4, 2026, 3:07 PM". */
export function formatPublished(publishedAt: string): string {
  const date = new Date(publishedAt);
  if (Number.isNaN(date.getTime())) return publishedAt;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * One post in the list or in search results: its title links to the editor; 'Draft',
 * 'Scheduled' with the time it will be published, or the publication date; 'Unlisted' for an unlisted post; its likes, boosts and replies from the
 * fediverse when it has some; its email to subscribers when it was mailed; a published post adds 'Read' (its
 * permalink, new tab) and 'Share'.
 */
export function PostCard({ post }: { post: Post }) {
  const published = post.publishedAt !== null;
  return (
    <article className="q-post-card">
      <h2 className="q-post-card__title">
        <Link to={paths.editPost(post.shortId)} className="q-post-card__link">
          {post.title}
        </Link>
      </h2>
      <p className="q-post-card__meta">
        {post.publishedAt === null && post.scheduledAt ? (
          <span className="q-post-card__scheduled">
            Scheduled <time dateTime={post.scheduledAt}>{formatPublished(post.scheduledAt)}</time>
          </span>
        ) : post.publishedAt === null ? (
          <span className="q-post-card__draft">Draft</span>
        ) : (
          <time dateTime={post.publishedAt}>{formatPublished(post.publishedAt)}</time>
        )}
        {post.page && <span className="q-post-card__page"> · Page</span>}
        {post.visibility === 'unlisted' && <span className="q-post-card__unlisted"> · Unlisted</span>}
      </p>
      <Reactions post={post} />
      {post.mail && <p className="q-post-card__mail">{mailText(post.mail)}</p>}
      {post.tags && post.tags.length > 0 && (
        <ul className="q-post-card__tags" aria-label={`Tags of ${post.title}`}>
          {post.tags.map((tag) => (
            <li key={tag}>
              <Link to={`${paths.posts}?tag=${encodeURIComponent(tag)}`}>{tag}</Link>
            </li>
          ))}
        </ul>
      )}
      {published && (
        <div className="q-post-card__actions">
          <a href={post.permalink} target="_blank" rel="noopener noreferrer" className="q-post-card__action">
            Read
          </a>
          <Button variant="link" className="q-post-card__action" onClick={() => sharePost(post)}>
            Share
          </Button>
        </div>
      )}
    </article>
  );
}

/**
 * The fediverse's likes, boosts and replies of the post, and its comments and webmentions (held or
 * approved), those that are not zero; nothing without any. Replies and responses link to Responses.
 */
function Reactions({ post }: { post: Post }) {
  const counts = [
    { key: 'likes', count: post.likes ?? 0, symbol: '♥', words: counted(post.likes ?? 0, 'like', 'likes') },
    { key: 'boosts', count: post.boosts ?? 0, symbol: '⟲', words: counted(post.boosts ?? 0, 'boost', 'boosts') },
    { key: 'replies', count: post.replies ?? 0, symbol: '↩', words: counted(post.replies ?? 0, 'reply', 'replies') },
    {
      key: 'responses',
      count: post.responses ?? 0,
      symbol: '💬',
      words: counted(post.responses ?? 0, 'comment or webmention', 'comments and webmentions'),
    },
  ].filter(({ count }) => count > 0);
  if (counts.length === 0) return null;
  return (
    <ul className="q-post-card__reactions" aria-label={`Responses to ${post.title}`}>
      {counts.map(({ key, count, symbol, words }) => (
        <li key={key} className="q-post-card__reaction">
          {key === 'replies' || key === 'responses' ? (
            <Link to={paths.responses} aria-label={words}>
              <span aria-hidden="true">
                {symbol} {count}
              </span>
            </Link>
          ) : (
            <span aria-label={words} role="img">
              <span aria-hidden="true">
                {symbol} {count}
              </span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * What the post's email to subscribers came to: when it goes out while it waits for its grace
 * period, then how many the relay took, and those waiting or given up when there are some.
 */
export function mailText(mail: PostMail): string {
  if (mail.dueAt) return `Email goes out at ${localClock(mail.dueAt)}`;
  return [
    `Emailed to ${amount(mail.sent)}`,
    mail.waiting > 0 && `${amount(mail.waiting)} waiting`,
    mail.failed > 0 && `${amount(mail.failed)} failed`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A list of post cards. */
export function PostCards({ posts, label }: { posts: Post[]; label: string }) {
  return (
    <ul className="q-post-cards" aria-label={label}>
      {posts.map((post) => (
        <li key={post.shortId}>
          <PostCard post={post} />
        </li>
      ))}
    </ul>
  );
}
