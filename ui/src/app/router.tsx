import {
  UNSAFE_createBrowserHistory,
  unstable_HistoryRouter as HistoryRouter,
  useRoutes,
  type RouteObject,
} from 'react-router';
import { AppHistoryContext, guardHistory, type AppHistory } from '../lib/history';
import { paths } from '../config/paths';
import { captureInviteLink } from '../features/blogs';
import { RootLayout } from './root-layout';
import { AuthCallbackRoute } from './routes/auth-callback';
import { catalogRoute } from './routes/catalog';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { ownerRoute } from './routes/owner';
import { SignoutRoute } from './routes/signout';

/**
 * The route table. The server answers index.html for `/`, `/signup`, `/d/*`, `/catalog`, `/catalog/*`
 * and `/auth/callback`; everything else the app does not know shows the not-found screen.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: paths.landing, element: <LandingRoute /> },
      { path: paths.signup, element: <LandingRoute signup /> },
      { path: paths.authCallback, element: <AuthCallbackRoute /> },
      { path: paths.signout, element: <SignoutRoute /> },
      ownerRoute,
      catalogRoute,
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/**
 * The browser's history, guarded (`lib/history.ts`). The app routes with react-router's declarative API
 * (`useRoutes` under a `HistoryRouter`) rather than its data router, whose code is ~15 KB compressed of the
 * post list's download; what Quire used of it (the leave check, scroll restoration, lazy screens, the error
 * screen) is `AppHistory`, `ScrollRestoration`, `lazyScreen` and `RouteErrorBoundary`.
 */
export function createAppHistory(): AppHistory {
  // Before the router reads the address: an invite link's code is kept, and leaves the address bar.
  captureInviteLink();
  return guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }));
}

function Routes({ table }: { table: RouteObject[] }) {
  return useRoutes(table);
}

/**
 * The whole app on `history`: the browser's (`createAppHistory`), or a memory history in tests, which may
 * also give a route table of their own.
 */
export function App({ history, table = routes }: { history: AppHistory; table?: RouteObject[] }) {
  return (
    <AppHistoryContext.Provider value={history}>
      <HistoryRouter history={history}>
        <Routes table={table} />
      </HistoryRouter>
    </AppHistoryContext.Provider>
  );
}
