import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, errors } from '../../test/fake-api';
import { renderSettings, settingsServer } from '../../test/fake-settings';

const blogPanel = () => screen.getByRole('region', { name: 'Blog' });
const descriptionField = () => within(blogPanel()).getByRole('textbox', { name: 'Description' });
const descriptionSave = () => within(blogPanel()).getAllByRole('button', { name: /^Save/ })[1]!;

describe('settings: blog description', () => {
  it('saves the description as the server stored it and counts the characters left', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    expect(descriptionField()).toHaveValue('');
    expect(descriptionField()).toHaveAccessibleDescription(/300 characters left/);

    await user.type(descriptionField(), '  Tea & cake ');
    expect(descriptionField()).toHaveAccessibleDescription(/287 characters left/);
    await user.click(descriptionSave());

    expect(await within(blogPanel()).findByRole('button', { name: 'Saved' })).toBeInTheDocument();
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}/description`).map((r) => r.body)).toEqual([
      { description: '  Tea & cake ' },
    ]);
    expect(descriptionField()).toHaveValue('Tea & cake');
  });

  it("shows the server's message under the field and keeps what was typed", async () => {
    settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}/description`]: () =>
        errors(422, { description: 'Should be at most 300 characters' }),
    });
    const { user } = renderSettings();
    await user.type(descriptionField(), 'Too long, says the server');
    await user.click(descriptionSave());
    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent('Should be at most 300 characters');
    expect(descriptionField()).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionField()).toHaveValue('Too long, says the server');
  });
});

describe('settings: listing on the landing page', () => {
  it('is off by default and saves as soon as it is ticked or unticked', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    const box = within(blogPanel()).getByRole('checkbox', {
      name: 'List this blog on the front page of this instance',
    });
    expect(box).not.toBeChecked();

    await user.click(box);
    expect(await within(blogPanel()).findByText('Saved')).toBeInTheDocument();
    expect(box).toBeChecked();
    expect(server.state.blog.listed).toBe(true);

    await user.click(box);
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}/listed`).map((r) => r.body)).toEqual([
      { listed: true },
      { listed: false },
    ]);
  });

  it('goes back to what it was when the save fails, with the message', async () => {
    settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}/listed`]: () => errors(500, { server: 'Something went wrong' }),
    });
    const { user } = renderSettings();
    const box = within(blogPanel()).getByRole('checkbox', {
      name: 'List this blog on the front page of this instance',
    });
    await user.click(box);
    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(box).not.toBeChecked();
  });
});

describe('settings: AI crawlers', () => {
  it('allows them by default and asks them away as soon as it is ticked', async () => {
    const server = settingsServer();
    const { user } = renderSettings();
    const box = within(blogPanel()).getByRole('checkbox', { name: 'Ask AI crawlers not to use this blog' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/Search engines still list it/);

    await user.click(box);
    expect(await within(blogPanel()).findByText('Saved')).toBeInTheDocument();
    expect(box).toBeChecked();
    expect(server.state.blog.aiCrawlers).toBe('disallow');

    await user.click(box);
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}/ai-crawlers`).map((r) => r.body)).toEqual([
      { ai_crawlers: 'disallow' },
      { ai_crawlers: 'allow' },
    ]);
  });

  it('goes back to what it was when the save fails, with the message', async () => {
    settingsServer({
      [`PUT /api/my/blogs/${alice.blog.id}/ai-crawlers`]: () => errors(500, { server: 'Something went wrong' }),
    });
    const { user } = renderSettings();
    const box = within(blogPanel()).getByRole('checkbox', { name: 'Ask AI crawlers not to use this blog' });
    await user.click(box);
    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(box).not.toBeChecked();
  });
});
