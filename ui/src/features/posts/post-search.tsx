import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Spinner, TextInput } from '../../components';
import { searchPosts, type Post } from './api';
import { PostCards } from './post-card';

type State =
  | { status: 'idle' }
  | { status: 'searching' }
  | { status: 'failed'; message: string }
  | { status: 'done'; query: string; posts: Post[] };

/** The query in the address (`?q=`), trimmed; empty when there is none. */
export function queryFromParams(params: URLSearchParams): string {
  return (params.get('q') ?? '').trim();
}

/**
 * Search (SPEC §2 "Search"): a 'query' field and 'Search'. The query is kept in the address, so a
 * search runs again on load and the back button returns to earlier ones. An empty query sends
 * nothing (SPEC §5).
 */
export function PostSearch({ blogId }: { blogId: number }) {
  const [params, setParams] = useSearchParams();
  const query = queryFromParams(params);
  const [input, setInput] = useState(query);
  const [state, setState] = useState<State>({ status: 'idle' });
  // Searching again for the query already shown runs it again (posts may have changed).
  const [run, setRun] = useState(0);

  // The address changed (back/forward): the field follows it.
  useEffect(() => setInput(query), [query]);

  useEffect(() => {
    if (query === '') {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'searching' });
    searchPosts(blogId, query, controller.signal).then(
      (posts) => setState({ status: 'done', query, posts }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [blogId, query, run]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = input.trim();
    if (wanted === '') return;
    if (wanted === query) setRun((n) => n + 1);
    else setParams({ q: wanted });
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
      {state.status === 'searching' && <Spinner label="Searching" />}
      {state.status === 'failed' && <p role="alert">{state.message}</p>}
      {state.status === 'done' && (
        <>
          <p className="q-post-search__summary" role="status">
            {state.posts.length === 0
              ? `No posts match “${state.query}”.`
              : `${state.posts.length} ${state.posts.length === 1 ? 'post matches' : 'posts match'} “${state.query}”.`}
          </p>
          {state.posts.length > 0 && <PostCards posts={state.posts} label="Results" />}
        </>
      )}
    </div>
  );
}
