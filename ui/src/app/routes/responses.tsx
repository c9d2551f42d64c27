import { Navigate, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { OwnerPage, useOwner } from '../../features/owner';
import { ResponsesScreen } from '../../features/responses';

/** `/d/responses`: replies from the fediverse, comments and webmentions, held, approved or in spam. */
export function ResponsesRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Responses">
      <ResponsesScreen blogId={blog.id} />
    </OwnerPage>
  );
}

/** `/d/replies`, the screen's old address: the same list (`?state=`) at the new one. */
export function OldRepliesRoute() {
  const { search } = useLocation();
  return <Navigate to={`${paths.responses}${search}`} replace />;
}
