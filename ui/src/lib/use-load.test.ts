import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { refresh } from './refresh';
import { useLoad, type Fetcher } from './use-load';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A fetcher whose calls the test answers one by one, with the signal and `previous` each got. */
function manualFetcher<T>() {
  const calls: { signal: AbortSignal; previous: T | undefined; answer: ReturnType<typeof deferred<T>> }[] = [];
  const fetcher: Fetcher<T> = (signal, previous) => {
    const answer = deferred<T>();
    calls.push({ signal, previous, answer });
    return answer.promise;
  };
  return { fetcher, calls };
}

describe('useLoad', () => {
  it('loads on mount and shows the data', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { result } = renderHook(() => useLoad(fetcher, []));
    expect(result.current.status).toBe('loading');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal.aborted).toBe(false);
    expect(calls[0]!.previous).toBeUndefined();

    await act(async () => calls[0]!.answer.resolve('posts'));
    expect(result.current).toMatchObject({ status: 'ready', data: 'posts', lastData: 'posts', lastError: null });
  });

  it('loads again when the deps change, aborting the run before and ignoring its late answer', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { result, rerender } = renderHook(({ page }) => useLoad(fetcher, [page]), { initialProps: { page: 1 } });
    await act(async () => calls[0]!.answer.resolve('page 1'));

    rerender({ page: 2 });
    expect(calls).toHaveLength(2);
    rerender({ page: 3 });
    expect(calls).toHaveLength(3);
    expect(calls[1]!.signal.aborted).toBe(true);
    // The last data stays at hand while the new page loads.
    expect(result.current).toMatchObject({ status: 'loading', lastData: 'page 1' });

    await act(async () => calls[2]!.answer.resolve('page 3'));
    await act(async () => calls[1]!.answer.resolve('page 2'));
    expect(result.current).toMatchObject({ status: 'ready', data: 'page 3' });
  });

  it('does not load again when a render keeps the deps', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { rerender } = renderHook(() => useLoad(fetcher, ['same']));
    rerender();
    rerender();
    expect(calls).toHaveLength(1);
  });

  it('aborts on unmount', () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { unmount } = renderHook(() => useLoad(fetcher, []));
    unmount();
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('keeps the failure, and reload() tries again, keeping it at hand until the new answer', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { result } = renderHook(() => useLoad(fetcher, []));
    const failure = new Error('Internal error');
    await act(async () => calls[0]!.answer.reject(failure));
    expect(result.current).toMatchObject({ status: 'failed', error: failure, lastError: failure });

    let reloaded: Promise<void> | undefined;
    act(() => {
      reloaded = result.current.reload();
    });
    expect(calls).toHaveLength(2);
    expect(result.current).toMatchObject({ status: 'loading', lastError: failure });
    const settled = vi.fn();
    void reloaded!.then(settled);
    await act(async () => undefined);
    expect(settled).not.toHaveBeenCalled();

    await act(async () => calls[1]!.answer.resolve('back'));
    expect(settled).toHaveBeenCalledOnce();
    expect(result.current).toMatchObject({ status: 'ready', data: 'back', lastError: null });
  });

  it('keeps the last data beside a failure to load again', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { result } = renderHook(() => useLoad(fetcher, []));
    await act(async () => calls[0]!.answer.resolve('lists'));
    act(() => void result.current.reload());
    await act(async () => calls[1]!.answer.reject(new Error('offline')));
    expect(result.current).toMatchObject({ status: 'failed', lastData: 'lists' });
  });

  it('gives the fetcher what it loaded last, for loads that add to it', async () => {
    const { fetcher, calls } = manualFetcher<number[]>();
    const { result, rerender } = renderHook(
      ({ page }) =>
        useLoad(
          async (signal, loaded: number[] | undefined) => [...(loaded ?? []), ...(await fetcher(signal, loaded))],
          [page],
        ),
      { initialProps: { page: 1 } },
    );
    await act(async () => calls[0]!.answer.resolve([1]));
    rerender({ page: 2 });
    expect(calls[1]!.previous).toEqual([1]);
    await act(async () => calls[1]!.answer.resolve([2]));
    expect(result.current).toMatchObject({ status: 'ready', data: [1, 2] });
  });

  it('loads nothing without a fetcher, and forgets the data when the fetcher goes', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { result, rerender } = renderHook(({ query }) => useLoad(query ? fetcher : null, [query]), {
      initialProps: { query: '' },
    });
    expect(result.current.status).toBe('idle');
    expect(calls).toHaveLength(0);

    rerender({ query: 'quire' });
    await act(async () => calls[0]!.answer.resolve('results'));
    expect(result.current.status).toBe('ready');

    rerender({ query: '' });
    await waitFor(() => expect(result.current).toMatchObject({ status: 'idle', lastData: undefined }));
    await expect(result.current.reload()).resolves.toBeUndefined();
  });

  it('replaces the data in place with setData, and does nothing without data', async () => {
    const { fetcher, calls } = manualFetcher<{ name: string }>();
    const { result } = renderHook(() => useLoad(fetcher, []));
    act(() => result.current.setData(() => ({ name: 'too early' })));
    expect(result.current.status).toBe('loading');

    await act(async () => calls[0]!.answer.resolve({ name: 'Alice writes' }));
    act(() => result.current.setData((blog) => ({ ...blog, name: 'Alice renamed' })));
    expect(result.current).toMatchObject({ status: 'ready', data: { name: 'Alice renamed' } });
  });

  it('reports a fetcher that throws at once as a failure', async () => {
    const boom = new Error('boom');
    const { result } = renderHook(() =>
      useLoad((): Promise<string> => {
        throw boom;
      }, []),
    );
    await waitFor(() => expect(result.current).toMatchObject({ status: 'failed', error: boom }));
  });

  it('loads again on refresh(refreshKey), from anywhere, and says when every load under the key has settled', async () => {
    const blog = manualFetcher<string>();
    const other = manualFetcher<string>();
    renderHook(() => useLoad(blog.fetcher, [], { refreshKey: 'blog' }));
    const { result } = renderHook(() => useLoad(blog.fetcher, [], { refreshKey: 'blog' }));
    renderHook(() => useLoad(other.fetcher, [], { refreshKey: 'other' }));
    await act(async () => blog.calls.forEach((call) => call.answer.resolve('Alice writes')));

    let refreshed: Promise<void> | undefined;
    act(() => {
      refreshed = refresh('blog');
    });
    expect(blog.calls).toHaveLength(4);
    expect(other.calls).toHaveLength(1);
    expect(blog.calls[3]!.previous).toBe('Alice writes');
    const settled = vi.fn();
    void refreshed!.then(settled);
    await act(async () => blog.calls[2]!.answer.resolve('Alice renamed'));
    expect(settled).not.toHaveBeenCalled();
    await act(async () => blog.calls[3]!.answer.resolve('Alice renamed'));
    expect(settled).toHaveBeenCalledOnce();
    expect(result.current).toMatchObject({ status: 'ready', data: 'Alice renamed' });
  });

  it('rejects a refresh whose load failed, keeping the last data, and refreshes nothing once unmounted', async () => {
    const { fetcher, calls } = manualFetcher<string>();
    const { result, unmount } = renderHook(() => useLoad(fetcher, [], { refreshKey: 'blog' }));
    await act(async () => calls[0]!.answer.resolve('Alice writes'));
    const failure = new Error('offline');
    let refreshed: Promise<void> | undefined;
    act(() => {
      refreshed = refresh('blog');
    });
    const outcome = expect(refreshed).rejects.toBe(failure);
    await act(async () => calls[1]!.answer.reject(failure));
    await outcome;
    expect(result.current).toMatchObject({ status: 'failed', lastData: 'Alice writes' });

    unmount();
    await expect(refresh('blog')).resolves.toBeUndefined();
    expect(calls).toHaveLength(2);
  });
});
