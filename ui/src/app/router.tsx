import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { RootLayout } from './root-layout';
import { AuthCallbackRoute } from './routes/auth-callback';
import { catalogRoute } from './routes/catalog';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { ownerRoute } from './routes/owner';
import { RouteErrorBoundary } from './routes/route-error';
import { SignoutRoute } from './routes/signout';

/**
 * The route table. The server answers index.html for `/`, `/signup`, `/d/*`, `/catalog`, `/catalog/*`
 * and `/auth/callback`; everything else the app does not know shows the not-found screen.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorBoundary />,
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

/** The router used in the browser. Tests build a memory router from `routes` instead. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
