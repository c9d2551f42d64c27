import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Spinner, TextInput } from '../../components';
import { errorMessage } from '../../lib/error-message';
import { useLoad } from '../../lib/use-load';
import { searchPosts, type Post } from './api';
import { PostCards } from './post-card';

/** The address keeps the query under the field's name, `query`. */
const QUERY = 'query';
/** Where addresses shared before kept it; still read, then moved to `query`. */
const LEGACY_QUERY = 'q';

/** The query in the address (`?query=`, else an older link's `?q=`), trimmed; empty when there is none. */
export function queryFromParams(params: URLSearchParams): string {
  return (params.get(QUERY) ?? params.get(LEGACY_QUERY) ?? '').trim();
}

/**
 * Search: a 'query' field and 'Search'. The query is kept in the address, so a search runs again
 * on load and the back button returns to earlier ones. An empty query sends nothing: there is
 * nothing to look for.
 */
export function PostSearch({ blogId }: { blogId: number }) {
  const [params, setParams] = useSearchParams();
  const query = queryFromParams(params);
  const [input, setInput] = useState(query);
  const search = useLoad(
    query === '' ? null : async (signal) => ({ query, posts: await searchPosts(blogId, query, signal) }),
    [blogId, query],
  );

  // The address changed (back/forward): the field follows it.
  useEffect(() => setInput(query), [query]);

  // An older link's `?q=` becomes `?query=` in place; the query, and so the search, stay the same.
  useEffect(() => {
    if (!params.has(LEGACY_QUERY)) return;
    const next = new URLSearchParams(params);
    const legacy = next.get(LEGACY_QUERY) ?? '';
    next.delete(LEGACY_QUERY);
    if (!next.has(QUERY)) next.set(QUERY, legacy);
    setParams(next, { replace: true });
  }, [params, setParams]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = input.trim();
    if (wanted === '') return;
    // Searching again for the query already shown runs it again (posts may have changed).
    if (wanted === query) void search.reload();
    else setParams({ [QUERY]: wanted });
  };

  return (
    <div className="q-post-search">
      <form className="q-post-search__form" role="search" onSubmit={submit} noValidate>
        <TextInput
          label="query"
          type="search"
          value={input}
          onChange={setInput}
          className="q-post-search__field"
          autoComplete="off"
          enterKeyHint="search"
        />
        <Button type="submit">Search</Button>
      </form>
      {search.status === 'loading' && <Spinner label="Searching" />}
      {search.status === 'failed' && <p role="alert">{errorMessage(search.error)}</p>}
      {search.status === 'ready' && <SearchResults {...search.data} />}
    </div>
  );
}

function SearchResults({ query, posts }: { query: string; posts: Post[] }) {
  return (
    <>
      <p className="q-post-search__summary" role="status">
        {posts.length === 0
          ? `No posts match “${query}”.`
          : `${posts.length} ${posts.length === 1 ? 'post matches' : 'posts match'} “${query}”.`}
      </p>
      {posts.length > 0 && <PostCards posts={posts} label="Results" />}
    </>
  );
}
