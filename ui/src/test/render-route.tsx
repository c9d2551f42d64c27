import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { routes } from '../app/router';

/**
 * The route table with the code of every lazy route (`lazy`, a chunk of its own in the bundle) already loaded,
 * so that a test sees a screen as soon as it renders, as the browser does once the chunk has arrived.
 */
async function loaded(table: RouteObject[]): Promise<RouteObject[]> {
  return Promise.all(
    table.map(async ({ lazy, children, ...route }) => {
      const code = typeof lazy === 'function' ? await lazy() : {};
      return { ...route, ...code, ...(children ? { children: await loaded(children) } : {}) } as RouteObject;
    }),
  );
}
const loadedRoutes = await loaded(routes);

/** Renders the real route table at `path` in a memory router. */
export function renderRoute(path: string) {
  const router = createMemoryRouter(loadedRoutes, { initialEntries: [path] });
  const user = userEvent.setup();
  const result = render(<RouterProvider router={router} />);
  return { ...result, router, user };
}
