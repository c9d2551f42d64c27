import { Panel } from '../../components';
import { OwnerPage, useOwner } from '../../features/owner';

/** `/d/settings`: the blog's settings. */
export function SettingsRoute() {
  const { blog } = useOwner();
  return (
    <OwnerPage title="Settings">
      <Panel title="Blog">
        <dl className="q-owner-facts">
          <dt>Name</dt>
          <dd>{blog.name}</dd>
          <dt>Address</dt>
          <dd>
            <a href={blog.url} target="_blank" rel="noopener noreferrer">
              {blog.url}
            </a>
          </dd>
        </dl>
      </Panel>
    </OwnerPage>
  );
}
