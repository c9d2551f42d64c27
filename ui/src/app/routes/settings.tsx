import { appConfig } from '../../config/app-config';
import { OwnerPage, useOwner } from '../../features/owner';
import { SettingsScreen } from '../../features/settings';

/** `/d/settings`: the blog's settings. */
export function SettingsRoute() {
  const { blog } = useOwner();
  const { providerName, email } = appConfig();
  return (
    <OwnerPage title="Settings">
      <SettingsScreen blog={blog} providerName={providerName} email={email} />
    </OwnerPage>
  );
}
