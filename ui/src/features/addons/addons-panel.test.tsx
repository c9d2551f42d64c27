import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import type { Addon } from './api';
import { renderSettings, settingsServer } from '../../test/fake-settings';

const readingTime: Addon = {
  id: 1,
  slug: 'reading-time',
  name: 'Reading time',
  description: 'Shows an estimate of the minutes it takes to read each post.',
};
const searchBox: Addon = {
  id: 7,
  slug: 'search-box',
  name: 'Search box',
  description: "Adds a search box so readers can search the blog's posts.",
};
const base = `/api/my/blogs/${alice.blog.id}/addons`;

/** A server that installs and uninstalls for real. */
function addonServer(overrides: Parameters<typeof settingsServer>[0] = {}) {
  const installed = new Set<number>([searchBox.id]);
  const all = [readingTime, searchBox];
  return settingsServer({
    [`GET ${base}/installed`]: () => json({ addons: all.filter((a) => installed.has(a.id)) }),
    [`GET ${base}/uninstalled`]: () => json({ addons: all.filter((a) => !installed.has(a.id)) }),
    [`POST ${base}/1/installation`]: () => {
      installed.add(1);
      return json({ addon: readingTime, installed: true });
    },
    [`DELETE ${base}/1/installation`]: () => {
      installed.delete(1);
      return json({ addon: readingTime, installed: false });
    },
    [`DELETE ${base}/7/installation`]: () => {
      installed.delete(7);
      return json({ addon: searchBox, installed: false });
    },
    ...overrides,
  });
}

const panel = () => screen.getByRole('region', { name: 'Addons' });
const section = (name: 'Installed' | 'Available') => within(panel()).getByRole('region', { name });

describe('settings: addons', () => {
  it('lists the installed and the available addons with their descriptions', async () => {
    addonServer();
    renderSettings();
    expect(await within(panel()).findByText('Reading time')).toBeInTheDocument();
    expect(within(section('Installed')).getByText('Search box')).toBeInTheDocument();
    expect(within(section('Installed')).getByText(searchBox.description)).toBeInTheDocument();
    expect(within(section('Installed')).getByRole('button', { name: 'Uninstall Search box' })).toHaveTextContent(
      'Uninstall',
    );
    expect(within(section('Available')).getByText(readingTime.description)).toBeInTheDocument();
    expect(within(section('Available')).getByRole('button', { name: 'Install Reading time' })).toHaveTextContent(
      'Install',
    );
  });

  it('installs and uninstalls, loading both lists again after each call', async () => {
    const server = addonServer();
    const { user } = renderSettings();
    await user.click(await within(panel()).findByRole('button', { name: 'Install Reading time' }));
    await waitFor(() => expect(within(section('Installed')).getByText('Reading time')).toBeInTheDocument());
    expect(server.sent('POST', `${base}/1/installation`).map((r) => r.body)).toEqual([{}]);
    expect(within(panel()).getByText('Every addon is installed.')).toBeInTheDocument();
    expect(server.sent('GET', `${base}/installed`)).toHaveLength(2);
    expect(server.sent('GET', `${base}/uninstalled`)).toHaveLength(2);

    await user.click(within(panel()).getByRole('button', { name: 'Uninstall Reading time' }));
    await waitFor(() => expect(within(section('Available')).getByText('Reading time')).toBeInTheDocument());
    expect(server.sent('DELETE', `${base}/1/installation`)).toHaveLength(1);
    await user.click(within(panel()).getByRole('button', { name: 'Uninstall Search box' }));
    expect(await within(panel()).findByText('No addon is installed yet.')).toBeInTheDocument();
  });

  it("shows the server's message on the addon when a call fails", async () => {
    addonServer({ [`POST ${base}/1/installation`]: () => errors(404, { addon: 'Addon not found' }) });
    const { user } = renderSettings();
    await user.click(await within(panel()).findByRole('button', { name: 'Install Reading time' }));
    expect(await within(section('Available')).findByRole('alert')).toHaveTextContent('Addon not found');
    expect(within(section('Available')).getByRole('button', { name: 'Install Reading time' })).toBeEnabled();
  });
});
