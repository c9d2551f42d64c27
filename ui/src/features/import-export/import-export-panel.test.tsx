import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import type { BlogExport } from './api';
import { humanSize } from './jobs';
import { anExport, renderSettings, settingsServer } from '../../test/fake-settings';

const base = `/api/my/blogs/${alice.blog.id}/exports`;

/** A server whose export moves on one step each time the list is read: queued, running, done. */
function exportServer() {
  const steps: BlogExport[] = [
    anExport({ state: 'running', progress: { done: 2, total: 5 } }),
    anExport({
      state: 'done',
      progress: { done: 5, total: 5 },
      size: 2_400_000,
      downloadUrl: `${base}/5/download`,
      finishedAt: '2026-11-22T10:00:05.000Z',
      expiresAt: '2026-11-23T10:00:05.000Z',
    }),
  ];
  let started = false;
  let reads = 0;
  return settingsServer({
    [`GET ${base}`]: () => {
      if (!started) return json({ exports: [] });
      const step = steps[Math.min(reads, steps.length - 1)];
      reads += 1;
      return json({ exports: [step] });
    },
    [`POST ${base}`]: () => {
      started = true;
      return json({ export: anExport() }, 202);
    },
  });
}

const panel = () => screen.getByRole('region', { name: 'Import and export' });

describe('settings: import and export', () => {
  it('offers the three exports, each with a line saying what it is for', async () => {
    settingsServer();
    renderSettings();
    for (const name of ['Quire archive', 'Markdown', 'Static site']) {
      expect(await within(panel()).findByRole('button', { name: `Export ${name}` })).toBeEnabled();
    }
    expect(within(panel()).getByText(/any Quire can import/)).toBeInTheDocument();
    expect(within(panel()).getByText(/for Hugo, Zola or Jekyll/)).toBeInTheDocument();
    expect(within(panel()).getByText(/any static host/)).toBeInTheDocument();
  });

  it('starts an export, shows its progress while it runs and then offers the download', async () => {
    const server = exportServer();
    const { user } = renderSettings();
    await user.click(await within(panel()).findByRole('button', { name: 'Export Quire archive' }));
    expect(server.sent('POST', base).map((r) => r.body)).toEqual([{ format: 'archive' }]);
    const progress = await within(panel()).findByRole('progressbar', { name: 'Quire archive export progress' });
    expect(progress).toHaveAttribute('value', '2');
    expect(progress).toHaveAttribute('max', '5');
    expect(within(panel()).getByText('2 of 5 written')).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Export Markdown' })).toBeDisabled();
    const link = await within(panel()).findByRole('link', { name: 'Download alice-20261122.quire.zip' });
    expect(link).toHaveAttribute('href', `${base}/5/download`);
    expect(within(panel()).getByText(/2\.4 MB, available until/)).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Export Markdown' })).toBeEnabled();
  });

  it("shows the server's message when an export cannot start, and a failed export's reason", async () => {
    settingsServer({
      [`GET ${base}`]: () =>
        json({
          exports: [anExport({ id: 4, format: 'site', state: 'failed', error: 'The export failed. Try again.' })],
        }),
      [`POST ${base}`]: () =>
        errors(422, { export: 'An export of this blog is already under way: wait for it to finish' }),
    });
    const { user } = renderSettings();
    expect(await within(panel()).findByText('The export failed. Try again.')).toBeInTheDocument();
    await user.click(within(panel()).getByRole('button', { name: 'Export Markdown' }));
    await waitFor(() =>
      expect(
        within(panel()).getByText('An export of this blog is already under way: wait for it to finish'),
      ).toBeInTheDocument(),
    );
  });

  it('deletes a finished export', async () => {
    let gone = false;
    const server = settingsServer({
      [`GET ${base}`]: () =>
        json({
          exports: gone
            ? []
            : [
                anExport({
                  state: 'done',
                  size: 900,
                  downloadUrl: `${base}/5/download`,
                  expiresAt: '2026-11-23T10:00:00Z',
                }),
              ],
        }),
      [`DELETE ${base}/5`]: () => {
        gone = true;
        return json({});
      },
    });
    const { user } = renderSettings();
    expect(await within(panel()).findByText(/900 B/)).toBeInTheDocument();
    await user.click(within(panel()).getByRole('button', { name: 'Delete the Quire archive export' }));
    await waitFor(() => expect(within(panel()).queryByRole('link', { name: /Download/ })).not.toBeInTheDocument());
    expect(server.sent('DELETE', `${base}/5`)).toHaveLength(1);
  });

  it('writes sizes in short form', () => {
    expect(humanSize(812)).toBe('812 B');
    expect(humanSize(4_200)).toBe('4.2 KB');
    expect(humanSize(13_000_000)).toBe('13.0 MB');
  });
});
