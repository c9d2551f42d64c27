// Below the landing page's sign-in: what the instance is (the operator's description) and the
// newest posts of the blogs whose owners listed them (issue 33; docs/public-instance.md).
import type { InstanceAnswer } from '../../api-types/instance';
import './landing.css';

/** A post's publication date as a reader expects it, e.g. "14 March 2026" (the browser's locale). */
function shownDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

/** The instance's description and newest posts; nothing while they load or when there are none. */
export function InstanceShowcase({ instance }: { instance: InstanceAnswer | null }) {
  if (instance === null || (instance.description === '' && instance.posts.length === 0)) return null;
  return (
    <div className="q-instance">
      {instance.description !== '' && (
        // HTML the server rendered through the posts' Markdown renderer: raw HTML arrives as text.
        <div
          className="q-instance__description"
          data-testid="instance-description"
          dangerouslySetInnerHTML={{ __html: instance.description }}
        />
      )}
      {instance.posts.length > 0 && (
        <section className="q-instance__posts" aria-labelledby="q-instance-posts">
          <h2 id="q-instance-posts">New on this instance</h2>
          <ul>
            {instance.posts.map((post) => (
              <li key={post.url} className="q-instance__post">
                <a className="q-instance__title" href={post.url}>
                  {post.title}
                </a>
                <span className="q-instance__meta">
                  <a href={post.blogUrl}>{post.blogName}</a>
                  {' · '}
                  <time dateTime={post.publishedAt}>{shownDate(post.publishedAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
