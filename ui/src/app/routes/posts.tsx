import { OwnerPage, useOwner } from '../../features/owner';

/** `/d/posts`: the post list. */
export function PostsRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Posts">
      <p>
        Your blog {blog.name} is at{' '}
        <a href={blog.url} target="_blank" rel="noopener noreferrer">
          {blog.url}
        </a>
        .
      </p>
    </OwnerPage>
  );
}
