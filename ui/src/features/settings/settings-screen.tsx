import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import type { Blog } from '../blogs';
import { AccountPanel } from './account-panel';
import { AddonsPanel } from './addons-panel';
import { BlogPanel } from './blog-panel';
import { DomainPanel } from './domain-panel';
import { FediversePanel } from './fediverse-panel';
import { ImportExportPanel } from './import-export-panel';
import { SocialAccountsPanel } from './social-accounts-panel';
import './settings.css';

export interface SettingsScreenProps {
  blog: Blog;
  /** Fetches the blog again so the owner area (menu, other screens) shows the change. */
  reloadBlog: () => Promise<Blog>;
  /** The sign-in provider's name (config.providerName). */
  providerName: string;
}

/** The settings screen's panels: Blog, Custom domain, Fediverse, Social Accounts, Addons, Import and export, and Account. */
export function SettingsScreen({ blog, reloadBlog, providerName }: SettingsScreenProps) {
  const navigate = useNavigate();
  // An import can change the blog's name, theme, icon, addons and time zone: the owner area
  // fetches the blog again, and the Blog panel starts afresh from it.
  const [imports, setImports] = useState(0);
  const afterImport = useCallback(() => {
    reloadBlog().then(
      () => setImports((count) => count + 1),
      (error: unknown) => console.warn('quire: reloading the blog after an import failed', error),
    );
  }, [reloadBlog]);
  return (
    <div className="q-settings">
      <BlogPanel key={imports} blog={blog} reloadBlog={reloadBlog} />
      <DomainPanel blogId={blog.id} reloadBlog={reloadBlog} />
      <FediversePanel blogId={blog.id} />
      <SocialAccountsPanel blog={blog} providerName={providerName} reloadBlog={reloadBlog} />
      <AddonsPanel blogId={blog.id} />
      <ImportExportPanel blogId={blog.id} onImported={afterImport} />
      <AccountPanel blogId={blog.id} onDeleted={() => navigate(paths.landing, { replace: true })} />
    </div>
  );
}
