// The calls behind the Addons panel (docs/api.md, 'Addons'): the blog's addons, installed or not,
// and installing or uninstalling one.
import type { Addon, Addons } from '../../api-types/addons';
import { api } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/); installing an
// addon takes no settings (docs/api.md, 'Addons').
export type { Addon } from '../../api-types/addons';

const blogPath = (blogId: number) => `/api/my/blogs/${blogId}`;

/** The addons installed on the blog, or the ones it can still install. */
export async function fetchAddons(
  blogId: number,
  which: 'installed' | 'uninstalled',
  signal?: AbortSignal,
): Promise<Addon[]> {
  const { data } = await api.get<Addons>(`${blogPath(blogId)}/addons/${which}`, signal ? { signal } : {});
  return data.addons;
}

/** Installs an addon (installing it twice changes nothing). */
export async function installAddon(blogId: number, addonId: number): Promise<void> {
  await api.post(`${blogPath(blogId)}/addons/${addonId}/installation`, {});
}

/** Uninstalls an addon (uninstalling it twice changes nothing). */
export async function uninstallAddon(blogId: number, addonId: number): Promise<void> {
  await api.delete(`${blogPath(blogId)}/addons/${addonId}/installation`);
}
