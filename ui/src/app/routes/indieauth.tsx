import { useLocation } from 'react-router';
import { OwnerPage } from '../../features/owner';
import { ConsentScreen } from '../../features/indieauth';

/** `/d/indieauth?...`: an app asks to sign in to the blog (IndieAuth, issue 37). */
export function IndieAuthRoute() {
  const { search } = useLocation();
  return (
    <OwnerPage title="Sign in to an app">
      <ConsentScreen query={search.replace(/^\?/, '')} />
    </OwnerPage>
  );
}
