import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { UNSAFE_createMemoryHistory, type RouteObject } from 'react-router';
import { App, routes } from '../app/router';
import { guardHistory, type AppHistory } from '../lib/history';
import type { LazyScreen } from '../lib/lazy-screen';

/**
 * Loads the code of every lazy screen (`lazyScreen`, a chunk of its own in the bundle) of the route table,
 * so that a test sees a screen as soon as it renders, as the browser does once the chunk has arrived.
 */
async function preload(table: RouteObject[]): Promise<void> {
  await Promise.all(
    table.map(async ({ element, children }) => {
      const type = (element as ReactElement | undefined)?.type as Partial<LazyScreen> | undefined;
      if (typeof type?.preload === 'function') await type.preload();
      if (children) await preload(children);
    }),
  );
}
await preload(routes);

/** A memory history at `path`, guarded as the browser's is (`lib/history.ts`). */
export function memoryHistory(path: string): AppHistory {
  return guardHistory(UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true }));
}

/** Renders `table` (the real route table unless a test gives its own) at `path`, as the app does. */
export function renderRoutes(table: RouteObject[], path: string) {
  const history = memoryHistory(path);
  const result = render(<App history={history} table={table} />);
  return { ...result, history };
}

/** Renders the real route table at `path` on a memory history. */
export function renderRoute(path: string) {
  const user = userEvent.setup();
  return { ...renderRoutes(routes, path), user };
}
