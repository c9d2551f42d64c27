import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import type { BlogImport, ImportReport } from './api';
import { STOP_IMPORT_QUESTION } from './import-section';
import { anExport, renderSettings, settingsServer } from '../../test/fake-settings';

const base = `/api/my/blogs/${alice.blog.id}/imports`;
const FILE_NAME = 'alice WordPress 2026-11-24.xml';

function aReport(overrides: Partial<ImportReport> = {}): ImportReport {
  return {
    posts: 9,
    pages: 2,
    drafts: 1,
    scheduled: 1,
    images: 3,
    tags: 10,
    redirects: 22,
    skipped: 1,
    lines: [
      { item: 'Road trip', message: 'the tag "Road Trip" became road-trip' },
      { item: 'Hostile HTML test', message: 'A script was removed: Quire posts run no scripts' },
    ],
    linesOmitted: 0,
    ...overrides,
  };
}

function anImport(overrides: Partial<BlogImport> = {}): BlogImport {
  return {
    id: 13,
    format: 'wordpress',
    fileName: FILE_NAME,
    state: 'queued',
    progress: { done: 0, total: 0 },
    error: null,
    report: null,
    createdAt: '2026-11-24T05:07:01.123Z',
    finishedAt: null,
    expiresAt: null,
    ...overrides,
  };
}

const done = (overrides: Partial<BlogImport> = {}) =>
  anImport({
    state: 'done',
    progress: { done: 11, total: 11 },
    report: aReport(),
    finishedAt: '2026-11-24T05:07:02.480Z',
    expiresAt: '2026-11-25T05:07:02.480Z',
    ...overrides,
  });

const wordpressFile = () => new File(['<rss version="2.0"></rss>'], FILE_NAME, { type: 'text/xml' });

/** The import section, found by its heading inside the 'Import and export' panel. */
const section = () =>
  within(screen.getByRole('region', { name: 'Import and export' })).getByRole('region', { name: 'Import' });

describe('settings: import', () => {
  it('says what it imports and offers a labelled file field, the old address and Import', async () => {
    settingsServer();
    renderSettings();
    expect(
      await within(section()).findByText(/WordPress, Ghost, WriteFreely, Bear Blog, a zip of Markdown files from Hugo/),
    ).toBeInTheDocument();
    expect(within(section()).getByLabelText('Export file')).toHaveAttribute('type', 'file');
    expect(within(section()).getByRole('textbox', { name: 'Old site address (optional)' })).toHaveAccessibleDescription(
      /Ghost exports don't say where the site was/,
    );
    expect(within(section()).getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it('uploads the file, shows its progress, then its report, and holds exports back meanwhile', async () => {
    let release: () => void = () => undefined;
    const uploaded = new Promise<void>((resolve) => {
      release = resolve;
    });
    const steps = [anImport({ state: 'running', progress: { done: 340, total: 1210 } }), done()];
    let started = false;
    let reads = 0;
    const server = settingsServer({
      [`GET ${base}`]: () => json({ imports: started ? [anImport()] : [] }),
      [`POST ${base}`]: async () => {
        await uploaded;
        started = true;
        // The export's blog name: the import renames the blog.
        server.state.blog = { ...server.state.blog, name: 'Harbour Notes' };
        return json({ import: anImport() }, 202);
      },
      [`GET ${base}/13`]: () => {
        const step = steps[Math.min(reads, steps.length - 1)];
        reads += 1;
        return json({ import: step });
      },
    });
    const { user } = renderSettings();
    const file = wordpressFile();
    await user.upload(await within(section()).findByLabelText('Export file'), file);
    await user.type(
      within(section()).getByRole('textbox', { name: 'Old site address (optional)' }),
      'http://127.0.0.1:8089',
    );
    await user.click(within(section()).getByRole('button', { name: 'Import' }));

    expect(await within(section()).findByText('Uploading…')).toBeInTheDocument();
    const exportButton = screen.getByRole('button', { name: 'Export Quire archive' });
    await waitFor(() => expect(exportButton).toBeDisabled());
    expect(screen.getByText('Wait for the import to finish before exporting.')).toBeInTheDocument();
    release();

    const progress = await within(section()).findByRole('progressbar', { name: `Import of ${FILE_NAME}` });
    expect(progress).toHaveAttribute('value', '340');
    expect(progress).toHaveAttribute('max', '1210');
    expect(within(section()).getByText('Importing… 340 of 1,210 items')).toBeInTheDocument();
    expect(within(section()).queryByText('Uploading…')).not.toBeInTheDocument();
    expect(exportButton).toBeDisabled();

    const report = await within(section()).findByRole('region', { name: `Report of ${FILE_NAME}` });
    const counts = Object.fromEntries(
      within(report)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(counts).toEqual({
      Posts: '9',
      Pages: '2',
      Drafts: '1',
      Scheduled: '1',
      Images: '3',
      Tags: '10',
      'Old addresses kept': '22',
      Skipped: '1',
    });
    const lines = within(within(report).getByRole('list', { name: 'Skipped or changed' })).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'Road trip: the tag "Road Trip" became road-trip',
      'Hostile HTML test: A script was removed: Quire posts run no scripts',
    ]);
    expect(within(section()).getByText('Imported 9 posts, 2 pages and 3 images; 1 skipped.')).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Hide report' })).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(exportButton).toBeEnabled());
    const blogPanel = screen.getByRole('region', { name: 'Blog' });
    await waitFor(() => expect(within(blogPanel).getByRole('textbox', { name: 'Name' })).toHaveValue('Harbour Notes'));
    expect(screen.getByTestId('shell-name')).toHaveTextContent('Harbour Notes');

    const [sent] = server.sent(
      'POST',
      `${base}?fileName=${encodeURIComponent(FILE_NAME)}&siteUrl=${encodeURIComponent('http://127.0.0.1:8089')}`,
    );
    expect(sent?.rawBody).toBe(file);
    expect(within(section()).getByLabelText('Export file')).toHaveValue('');
  });

  it("shows the server's reason a file cannot be imported next to the file field", async () => {
    const reason = 'This file is not an export Quire can read: it is a PDF document.';
    settingsServer({ [`POST ${base}`]: () => errors(422, { file: reason }) });
    const { user } = renderSettings();
    await user.upload(await within(section()).findByLabelText('Export file'), new File(['%PDF-1.7'], 'cv.pdf'));
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    const field = within(section()).getByLabelText('Export file');
    await waitFor(() => expect(field).toHaveAccessibleDescription(`Up to 512 MiB. ${reason}`));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(within(section()).getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it("places the server's other reasons by what they concern: the old address, a job under way", async () => {
    let answer = errors(422, { siteUrl: 'Should be an http or https address' });
    settingsServer({ [`POST ${base}`]: () => answer });
    const { user } = renderSettings();
    await user.upload(await within(section()).findByLabelText('Export file'), wordpressFile());
    await user.type(
      within(section()).getByRole('textbox', { name: 'Old site address (optional)' }),
      'https://old.example.com',
    );
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    await waitFor(() =>
      expect(
        within(section()).getByRole('textbox', { name: 'Old site address (optional)' }),
      ).toHaveAccessibleDescription(/Should be an http or https address$/),
    );

    answer = errors(422, { import: 'An import or export of this blog is already under way: wait for it to finish' });
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(await within(section()).findByRole('alert')).toHaveTextContent(
      'An import or export of this blog is already under way: wait for it to finish',
    );
  });

  it('refuses a file over 512 MiB, an empty one or a bad address without sending anything', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    const input = await within(section()).findByLabelText('Export file');
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(input).toHaveAccessibleDescription(/Choose the export file to import\.$/);

    const huge = new File(['x'], 'everything.xml');
    Object.defineProperty(huge, 'size', { value: 600 * 1024 * 1024 });
    await user.upload(input, huge);
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(input).toHaveAccessibleDescription(/This file is 629\.1 MB: Quire imports files of up to 512 MiB\.$/);

    await user.upload(input, new File([], 'empty.xml'));
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(input).toHaveAccessibleDescription(/This file is empty\.$/);

    await user.upload(input, wordpressFile());
    await user.type(within(section()).getByRole('textbox', { name: 'Old site address (optional)' }), 'old.example.com');
    await user.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(within(section()).getByRole('textbox', { name: 'Old site address (optional)' })).toHaveAccessibleDescription(
      /Should be an http or https address$/,
    );
    // (Settings' custom CSS box asks for its preview on its own; no import was sent.)
    expect(server.requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/css/check'))).toEqual([]);
  });

  it('forgets a finished import, and stops one under way once the owner confirms', async () => {
    let list = [
      anImport({ id: 14, fileName: 'ghost.json', format: 'ghost', state: 'running', progress: { done: 1, total: 4 } }),
      done(),
    ];
    const server = settingsServer({
      [`GET ${base}`]: () => json({ imports: list }),
      [`GET ${base}/14`]: () => json({ import: list[0] }),
      [`DELETE ${base}/13`]: () => {
        list = list.filter((entry) => entry.id !== 13);
        return json({});
      },
      [`DELETE ${base}/14`]: () => {
        list = list.filter((entry) => entry.id !== 14);
        return json({});
      },
    });
    const { user } = renderSettings();
    expect(await within(section()).findByText(/Imported 9 posts/)).toBeInTheDocument();
    expect(within(section()).getByText(/^WordPress, /)).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(within(section()).getByText('Wait for this import to finish before starting another.')).toBeInTheDocument();

    await user.click(within(section()).getByRole('button', { name: `Forget the import of ${FILE_NAME}` }));
    await waitFor(() => expect(within(section()).queryByText(FILE_NAME)).not.toBeInTheDocument());
    expect(server.sent('DELETE', `${base}/13`)).toHaveLength(1);

    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(section()).getByRole('button', { name: 'Stop the import of ghost.json' }));
    expect(confirm).toHaveBeenCalledWith(STOP_IMPORT_QUESTION);
    expect(server.sent('DELETE', `${base}/14`)).toEqual([]);
    await user.click(within(section()).getByRole('button', { name: 'Stop the import of ghost.json' }));
    await waitFor(() => expect(within(section()).queryByText('ghost.json')).not.toBeInTheDocument());
    expect(server.sent('DELETE', `${base}/14`)).toHaveLength(1);
    expect(within(section()).getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it('opens a long report with its first 100 lines, shows all 5,000 on request and counts those left out', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => ({
      item: `Post ${i + 1}`,
      message: 'the slug "Post!" became post',
    }));
    settingsServer({
      [`GET ${base}`]: () => json({ imports: [done({ report: aReport({ lines, linesOmitted: 1234, skipped: 0 }) })] }),
    });
    const { user } = renderSettings();
    const open = await within(section()).findByRole('button', { name: 'Report' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const report = within(section()).getByRole('region', { name: `Report of ${FILE_NAME}` });
    const list = within(report).getByRole('list', { name: 'Skipped or changed' });
    // Role queries over 5,000 items are slow in jsdom: the items are counted as elements.
    expect(list.children).toHaveLength(100);
    expect(within(report).getByText('1,234 more lines did not fit in this report.')).toBeInTheDocument();
    await user.click(within(report).getByRole('button', { name: 'Show all 5,000 lines' }));
    expect(list.children).toHaveLength(5000);
    expect(list.lastElementChild).toHaveTextContent('Post 5000: the slug "Post!" became post');
    expect(within(report).queryByRole('button', { name: /Show all/ })).not.toBeInTheDocument();
    // jsdom takes seconds to build 5,000 list items (a browser, milliseconds).
  }, 30_000);

  it("shows a failed import's reason", async () => {
    settingsServer({
      [`GET ${base}`]: () =>
        json({ imports: [anImport({ state: 'failed', error: 'The export file could not be read to its end.' })] }),
    });
    renderSettings();
    expect(await within(section()).findByRole('alert')).toHaveTextContent(
      'The export file could not be read to its end.',
    );
    expect(within(section()).queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
  });

  it('waits for an export under way before importing', async () => {
    const running = anExport({ state: 'running', progress: { done: 1, total: 5 } });
    settingsServer({ [`GET /api/my/blogs/${alice.blog.id}/exports`]: () => json({ exports: [running] }) });
    renderSettings();
    expect(await within(section()).findByText('Wait for the export to finish before importing.')).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Import' })).toBeDisabled();
  });
});
