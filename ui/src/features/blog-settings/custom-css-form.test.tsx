import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, json } from '../../test/fake-api';
import { renderSettings, settingsServer } from '../../test/fake-settings';
import { CHECK_DELAY_MS } from './custom-css-form';

const blogPanel = () => screen.getByRole('region', { name: 'Blog' });
const cssBox = () => within(blogPanel()).getByRole('textbox', { name: 'Custom CSS' });
const cssForm = () => within(blogPanel()).getByRole('form', { name: 'Custom CSS' });
const cssSave = () => within(cssForm()).getByRole('button', { name: /Save/ });
const cssPath = `/api/my/blogs/${alice.blog.id}/css`;

afterEach(() => {
  vi.useRealTimers();
});

describe('settings: custom CSS', () => {
  it('shows the stored stylesheet and a link to the blog', async () => {
    settingsServer({ [`GET ${cssPath}`]: () => json({ css: 'body { color: #123; }' }) });
    renderSettings();
    await waitFor(() => expect(cssBox()).toHaveValue('body { color: #123; }'));
    expect(within(cssForm()).getByRole('link', { name: 'View blog' })).toHaveAttribute('href', alice.blog.url);
    expect(cssBox()).toHaveAccessibleDescription(/Up to 16 KB/);
  });

  it("checks what is typed once typing pauses, showing the server's message naming the line, and saves nothing", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = settingsServer();
    const { user } = renderSettings({ advanceTimers: vi.advanceTimersByTime });
    await waitFor(() => expect(cssBox()).toHaveValue(''));

    await user.type(cssBox(), '@import x;');
    const typedChecks = () =>
      server.sent('POST', `${cssPath}/check`).filter((r) => (r.body as { css: string }).css !== '');
    expect(typedChecks()).toHaveLength(0);
    act(() => vi.advanceTimersByTime(CHECK_DELAY_MS));
    expect(await within(cssForm()).findByRole('alert')).toHaveTextContent('Line 1: `@import` is not allowed');
    expect(typedChecks().map((r) => r.body)).toEqual([{ css: '@import x;' }]);
    expect(server.sent('PUT', cssPath)).toHaveLength(0);
    expect(server.state.css).toBe('');

    await user.clear(cssBox());
    await user.type(cssBox(), 'h1 {{}');
    expect(within(cssForm()).queryByRole('alert')).toBeNull();
    act(() => vi.advanceTimersByTime(CHECK_DELAY_MS));
    expect(await within(cssForm()).findByRole('status')).toHaveTextContent('No problems found.');
  });

  it('shows the home page with the stored CSS in a frame, and with the typed CSS once it passes the check', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = settingsServer();
    const { user } = renderSettings({ advanceTimers: vi.advanceTimersByTime });
    const frame = () => within(cssForm()).getByTitle('Preview of your blog with this CSS');
    await waitFor(() => expect(frame()).toHaveAttribute('src', `${alice.blog.url}/css-preview/token1`));

    await user.type(cssBox(), 'h1 {{ color: red; }');
    act(() => vi.advanceTimersByTime(CHECK_DELAY_MS));
    await waitFor(() => expect(frame()).toHaveAttribute('src', `${alice.blog.url}/css-preview/token2`));
    expect(server.sent('POST', `${cssPath}/check`).map((r) => r.body)).toEqual([
      { css: '' },
      { css: 'h1 { color: red; }' },
    ]);

    await user.type(cssBox(), '@import x;');
    act(() => vi.advanceTimersByTime(CHECK_DELAY_MS));
    expect(await within(cssForm()).findByRole('alert')).toHaveTextContent('Line 1: `@import` is not allowed');
    expect(frame()).toHaveAttribute('src', `${alice.blog.url}/css-preview/token2`);
    expect(server.state.css).toBe('');
  });

  it('saves the stylesheet exactly as typed and says Saved', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    await waitFor(() => expect(cssBox()).toHaveValue(''));
    await user.type(cssBox(), 'h1 {{ color: red; }');
    await user.click(cssSave());
    expect(await within(cssForm()).findByRole('button', { name: 'Saved' })).toBeInTheDocument();
    expect(server.sent('PUT', cssPath).map((r) => r.body)).toEqual([{ css: 'h1 { color: red; }' }]);
    expect(server.state.css).toBe('h1 { color: red; }');
    expect(cssBox()).toHaveValue('h1 { color: red; }');
  });

  it("keeps what was typed and shows the server's refusal when a save is refused", async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    await waitFor(() => expect(cssBox()).toHaveValue(''));
    await user.type(cssBox(), '@import x;');
    await user.click(cssSave());
    expect(await within(cssForm()).findByRole('alert')).toHaveTextContent('Line 1: `@import` is not allowed');
    expect(cssBox()).toHaveValue('@import x;');
    expect(cssBox()).toHaveAttribute('aria-invalid', 'true');
    expect(server.state.css).toBe('');
  });
});
