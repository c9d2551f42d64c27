import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, ButtonLink, Pager, Select, Spinner } from '../../components';
import { paths, postsPage } from '../../config/paths';
import { errorMessage } from '../../lib/error-message';
import { pageFromParam } from '../../lib/page-param';
import { useLoad } from '../../lib/use-load';
import { fetchPosts } from './api';
import { TrashLink } from './history';
import { PostCards } from './post-card';
import { fetchTags } from './tags';

/** The list's address: page `page` of the posts, only those tagged `tag` when given. */
export function listPath(page: number, tag: string | null): string {
  if (!tag) return postsPage(page);
  const query = new URLSearchParams({ tag });
  if (page > 1) query.set('p', String(page));
  return `${paths.posts}?${query.toString()}`;
}

/**
 * The post list: 'Search' and 'New Post', one card per post, newest first,
 * and a pager when there is more than one page. The page lives in `?p=` (page 1 omits it).
 */
export function PostList({ blogId }: { blogId: number }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const raw = params.get('p');
  const page = pageFromParam(raw);
  const tag = params.get('tag') || null;
  const list = useLoad((signal) => fetchPosts(blogId, page, signal, tag ?? undefined), [blogId, page, tag]);
  const tags = useLoad((signal) => fetchTags(blogId, signal), [blogId]);

  // `?p=1` or a page number that is not one: the address of page 1 has no parameter.
  useEffect(() => {
    if (raw !== null && (page === 1 || String(page) !== raw)) navigate(listPath(page, tag), { replace: true });
  }, [raw, page, tag, navigate]);

  const goTo = (target: number) => {
    navigate(listPath(target, tag));
    window.scrollTo(0, 0);
  };

  const tagOptions = [
    { value: '', label: 'All posts' },
    ...(tags.status === 'ready' ? tags.data.map((t) => ({ value: t.name, label: `${t.name} (${t.posts})` })) : []),
    ...(tag && !(tags.status === 'ready' && tags.data.some((t) => t.name === tag)) ? [{ value: tag, label: tag }] : []),
  ];

  return (
    <div className="q-post-list">
      <div className="q-post-list__actions">
        <ButtonLink to={paths.postsSearch}>Search</ButtonLink>
        <TrashLink blogId={blogId} />
        <ButtonLink to={paths.newPost} variant="primary">
          New Post
        </ButtonLink>
      </div>
      {(tag || (tags.status === 'ready' && tags.data.length > 0)) && (
        <Select
          label="Filter by tag"
          className="q-post-list__filter"
          options={tagOptions}
          value={tag ?? ''}
          onChange={(value) => navigate(listPath(1, value || null))}
        />
      )}
      {list.status === 'loading' && (
        <div className="q-post-list__status">
          <Spinner label="Loading posts" />
        </div>
      )}
      {list.status === 'failed' && (
        <div className="q-post-list__status">
          <p role="alert">{errorMessage(list.error)}</p>
          <p>
            {page > 1 && (
              <>
                <ButtonLink to={paths.posts}>First page</ButtonLink>{' '}
              </>
            )}
            <Button variant="secondary" onClick={() => void list.reload()}>
              Try again
            </Button>
          </p>
        </div>
      )}
      {list.status === 'ready' && list.data.posts.length === 0 && tag && (
        <div className="q-post-list__empty">
          <p className="q-post-list__empty-title">No posts tagged {tag}</p>
        </div>
      )}
      {list.status === 'ready' && list.data.posts.length === 0 && !tag && (
        <div className="q-post-list__empty">
          <p className="q-post-list__empty-title">No posts yet</p>
          <p>Your blog is ready for its first post. Start one with 'New Post'.</p>
        </div>
      )}
      {list.status === 'ready' && list.data.posts.length > 0 && (
        <>
          <PostCards posts={list.data.posts} label="Posts" />
          <Pager page={list.data.paging.pageNumber || page} totalPages={list.data.paging.totalPages} onGo={goTo} />
        </>
      )}
    </div>
  );
}
