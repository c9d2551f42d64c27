// First, so the panels' own styles come after the classes they share.
import './settings.css';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { AccountPanel } from '../account';
import { AddonsPanel } from '../addons';
import { ApiTokensPanel } from '../api-tokens';
import { BlogPanel } from '../blog-settings';
import type { Blog } from '../blogs';
import { DomainPanel } from '../custom-domain';
import { FediversePanel } from '../fediverse';
import { ImportExportPanel } from '../import-export';
import { CommentsPanel } from '../responses';
import { SocialAccountsPanel } from '../social-accounts';
import { SubscribersPanel } from '../subscribers';

export interface SettingsScreenProps {
  blog: Blog;
  /** The sign-in provider's name (config.providerName). */
  providerName: string;
  /** Whether the instance sends email (config.email): the Subscribers panel shows only then. */
  email: boolean;
}

/**
 * The settings screen: the panels of the features it composes, in order: Blog, Custom domain,
 * Comments, Fediverse, Subscribers (only on an instance that sends email), Social Accounts, Addons, API
 * tokens, Import and export, and Account. A panel that changes the blog refreshes it (`refreshBlog()`,
 * features/blogs), and those showing it follow the new `blog`.
 */
export function SettingsScreen({ blog, providerName, email }: SettingsScreenProps) {
  const navigate = useNavigate();
  return (
    <div className="q-settings">
      <BlogPanel blog={blog} />
      <DomainPanel blogId={blog.id} />
      <CommentsPanel blogId={blog.id} />
      <FediversePanel blogId={blog.id} />
      {email && <SubscribersPanel blogId={blog.id} />}
      <SocialAccountsPanel blog={blog} providerName={providerName} />
      <AddonsPanel blogId={blog.id} />
      <ApiTokensPanel blogId={blog.id} />
      <ImportExportPanel blogId={blog.id} />
      <AccountPanel blogId={blog.id} onDeleted={() => navigate(paths.landing, { replace: true })} />
    </div>
  );
}
