import { AdminScreen } from '../../features/admin';
import { OwnerPage, useOwner } from '../../features/owner';

/** What a signed-in user who is not an admin reads at /d/admin. */
export const NOT_AN_ADMIN =
  "This screen is for the instance's admins, and your account is not one of them. Your own blog is under Posts and Settings.";

/** `/d/admin`: the instance admins' review tools; anyone else is told it is not theirs. */
export function AdminRoute() {
  const { isAdmin } = useOwner();
  return (
    <OwnerPage title="Admin">
      {isAdmin ? (
        <AdminScreen />
      ) : (
        <p className="q-admin-refused" role="alert">
          {NOT_AN_ADMIN}
        </p>
      )}
    </OwnerPage>
  );
}
