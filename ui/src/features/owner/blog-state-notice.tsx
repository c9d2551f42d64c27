import type { Blog } from '../blogs';

/** What the owner is told about each trust state but `approved` (docs/public-instance.md). */
const NOTICES: Record<Exclude<Blog['state'], 'approved'>, { title: string; meaning: string }> = {
  new: {
    title: 'Your blog is waiting for review.',
    meaning:
      'Until someone running this instance has looked at it, search engines are asked not to index it, ' +
      'its posts are not sent to the fediverse (they go out once it is approved) and it cannot use a custom domain. ' +
      'You can write and publish as usual.',
  },
  silenced: {
    title: 'Your blog has been silenced.',
    meaning:
      'It stays online, but search engines are asked not to index it, its posts are not sent to the fediverse ' +
      'and it cannot use a custom domain.',
  },
  suspended: {
    title: 'Your blog has been suspended.',
    meaning:
      'Its pages, feeds and images now answer "This blog has been suspended." to everyone, and nothing can be ' +
      'changed. You can still export your blog and delete your account in Settings.',
  },
};

/** The line at the top of the owner area saying what the blog's trust state means; nothing when approved. */
export function BlogStateNotice({ blog }: { blog: Blog }) {
  if (blog.state === 'approved') return null;
  const notice = NOTICES[blog.state];
  return (
    <div className={`q-owner__state q-owner__state--${blog.state}`} role="note" data-testid="blog-state">
      <p>
        <strong>{notice.title}</strong> {notice.meaning}
      </p>
      {blog.stateReason && <p>Reason given: {blog.stateReason}</p>}
    </div>
  );
}
