import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { SettingsScreen } from '../../features/settings';

/** `/d/settings`: the blog's settings. */
export function SettingsRoute() {
  const { blog, reloadBlog } = useOwner();
  return (
    <OwnerPage title="Settings">
      <SettingsScreen blog={blog} reloadBlog={reloadBlog} providerName={appConfig().providerName} />
    </OwnerPage>
  );
}
