import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ScrollRestoration } from '../lib/scroll-restoration';
import { RouteErrorBoundary } from './routes/route-error';

/**
 * Wraps every screen: a screen that throws shows the error screen until the user goes elsewhere; a screen
 * whose code is still on its way shows nothing for that moment; scroll positions come back on back/forward
 * and new pages start at the top.
 */
export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <RouteErrorBoundary resetKey={pathname}>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
      <ScrollRestoration />
    </>
  );
}
