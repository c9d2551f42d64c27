import { Outlet, ScrollRestoration } from 'react-router';

/** Wraps every screen: restores scroll positions on back/forward and scrolls new pages to the top. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
