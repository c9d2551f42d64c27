import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, errors } from '../../test/fake-api';
import { renderSettings, settingsServer } from '../../test/fake-settings';

const blogPanel = () => screen.getByRole('region', { name: 'Blog' });

afterEach(() => {
  vi.useRealTimers();
});

describe('settings: blog name', () => {
  it("says 'Saved' for 3 seconds after a save, then 'Save' again, and the shell shows the new name", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = settingsServer();
    const { user } = renderSettings({ advanceTimers: vi.advanceTimersByTime });
    const name = within(blogPanel()).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Alice writes');

    await user.clear(name);
    await user.type(name, '  Notes from Alice ');
    await user.click(within(blogPanel()).getAllByRole('button', { name: 'Save' })[0]!);

    expect(await within(blogPanel()).findByRole('button', { name: 'Saved' })).toBeEnabled();
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}`).map((r) => r.body)).toEqual([
      { name: '  Notes from Alice ' },
    ]);
    // The field shows the name as the server stored it, and the shell got the reloaded blog.
    expect(name).toHaveValue('Notes from Alice');
    await waitFor(() => expect(screen.getByTestId('shell-name')).toHaveTextContent('Notes from Alice'));

    act(() => vi.advanceTimersByTime(2900));
    expect(within(blogPanel()).getByRole('button', { name: 'Saved' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(within(blogPanel()).queryByRole('button', { name: 'Saved' })).toBeNull();
    expect(within(blogPanel()).getAllByRole('button', { name: 'Save' })).toHaveLength(5); // name, description, theme, custom CSS, time zone
  });

  it("shows the server's message under the field, keeps what was typed and clears the loading flag", async () => {
    const server = settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}`]: () => errors(422, { name: "Can't be blank" }),
    });
    const { user } = renderSettings();
    const name = within(blogPanel()).getByRole('textbox', { name: 'Name' });

    await user.clear(name);
    await user.type(name, '   {Enter}');

    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent("Can't be blank");
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(/Can't be blank/);
    expect(name).toHaveValue('   ');
    const save = within(blogPanel()).getAllByRole('button', { name: 'Save' })[0]!;
    expect(save).toBeEnabled();
    expect(save).not.toHaveAttribute('aria-busy');
    expect(screen.getByTestId('shell-name')).toHaveTextContent('Alice writes');
    // Nothing but the failed call: the blog was not reloaded.
    expect(server.sent('GET', `/api/my/blogs/${alice.blog.id}`)).toHaveLength(0);

    // Typing again clears the message.
    await user.type(name, 'x');
    expect(within(blogPanel()).queryByRole('alert')).toBeNull();
  });

  it('disables the button while the call runs, so a second click sends nothing', async () => {
    let answer: (response: Response) => void = () => undefined;
    const server = settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user } = renderSettings();
    const save = within(blogPanel()).getAllByRole('button', { name: 'Save' })[0]!;
    await user.click(save);
    await waitFor(() => expect(save).toBeDisabled());
    expect(save).toHaveAttribute('aria-busy', 'true');
    await user.click(save);
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}`)).toHaveLength(1);
    answer(errors(500, { server: 'Something went wrong (request id abc123)' }));
    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent('Something went wrong (request id abc123)');
    expect(save).toBeEnabled();
  });
});

describe('settings: theme', () => {
  it("offers the server's themes with the blog's selected, saves the chosen one and says 'Saved'", async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    const select = within(blogPanel()).getByRole('combobox', { name: 'Theme' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(4));
    expect(select).toHaveValue('1');

    await user.selectOptions(select, 'Dark');
    await user.click(within(blogPanel()).getAllByRole('button', { name: 'Save' })[2]!);

    expect(await within(blogPanel()).findByRole('button', { name: 'Saved' })).toBeInTheDocument();
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}/theme`).map((r) => r.body)).toEqual([{ theme_id: 4 }]);
    expect(server.state.blog.theme.name).toBe('Dark');
    expect(select).toHaveValue('4');
  });

  it("shows the server's message under the select", async () => {
    settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}/theme`]: () => errors(422, { themeId: 'Unknown theme' }),
    });
    const { user } = renderSettings();
    await user.click(within(blogPanel()).getAllByRole('button', { name: 'Save' })[2]!);
    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent('Unknown theme');
    expect(within(blogPanel()).getByRole('combobox', { name: 'Theme' })).toHaveAttribute('aria-invalid', 'true');
  });
});
