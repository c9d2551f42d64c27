import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appConfig } from '../../config/app-config';
import { localDate } from '../../lib/local-time';
import { alice, errors, json } from '../../test/fake-api';
import { renderSettings, settingsServer } from '../../test/fake-settings';
import type { ApiToken } from './api';
import { expiryDate, revokeTokenQuestion, SHOWN_ONCE } from './api-tokens-panel';

const tokensPath = `/api/my/blogs/${alice.blog.id}/tokens`;
const SECRET = `quire_${'ab12'.repeat(16)}`;
const TOO_MANY = 'A blog can have at most 50 tokens: revoke one first';
const NAME_BLANK = "Can't be blank";
const NO_SCOPE = 'Choose at least one scope';

/** Token `n`, made in Settings, never used, never expiring, unless `overrides` say otherwise. */
const aToken = (n: number, overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: n,
  name: `Token ${n}`,
  scopes: ['create', 'media'],
  last4: `00${n}`.slice(-4),
  clientId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  ...overrides,
});

/**
 * A fake quire keeping the blog's tokens, newest first: it makes one (refusing a blank name or no
 * scope, as the server does) and revokes one; `extra` replaces or adds handlers.
 */
function tokensServer(initial: ApiToken[] = [], extra: Parameters<typeof settingsServer>[0] = {}) {
  const state = { tokens: initial, nextId: 100 };
  const server = settingsServer({
    [`GET ${tokensPath}`]: () => json({ tokens: state.tokens }),
    [`POST ${tokensPath}`]: (request) => {
      const body = request.body as { name: string; scopes: string[]; expires_at?: string };
      if (body.name.trim() === '') return errors(422, { name: NAME_BLANK });
      if (body.scopes.length === 0) return errors(422, { scopes: NO_SCOPE });
      const token = aToken(state.nextId, {
        name: body.name,
        scopes: body.scopes,
        last4: SECRET.slice(-4),
        createdAt: '2026-11-29T15:00:00.000Z',
        expiresAt: body.expires_at ?? null,
      });
      state.nextId += 1;
      state.tokens = [token, ...state.tokens];
      return json({ token: SECRET, api_token: token }, 201);
    },
    // Every id the list may hold, those the fake makes included; one revoked already is a 404.
    ...Object.fromEntries(
      Array.from({ length: 120 }, (_, id) => [
        `DELETE ${tokensPath}/${id}`,
        () => {
          if (!state.tokens.some((token) => token.id === id)) return errors(404, { token: 'Not found' });
          state.tokens = state.tokens.filter((token) => token.id !== id);
          return json({});
        },
      ]),
    ),
    ...extra,
  });
  return { ...server, state };
}

/** The element of `row` whose whole text is `text` (a line of several parts). */
const line = (row: HTMLElement, text: string) => within(row).getByText((_, element) => element?.textContent === text);

const panel = () => screen.getByRole('region', { name: 'API tokens' });
const form = () => within(panel()).getByRole('form', { name: 'New token' });
const list = () => within(panel()).getByRole('list', { name: 'Your tokens' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('settings: API tokens', () => {
  it('sits between Addons and Import and export', async () => {
    tokensServer();
    renderSettings();
    await within(panel()).findByText('No tokens yet.');
    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(titles.slice(titles.indexOf('Addons'), titles.indexOf('Addons') + 3)).toEqual([
      'Addons',
      'API tokens',
      'Import and export',
    ]);
  });

  it('explains Micropub with the endpoint, and says when there is no token yet', async () => {
    tokensServer();
    renderSettings();
    expect(await within(panel()).findByText('No tokens yet.')).toBeInTheDocument();
    expect(within(panel()).getByText(/publish through Micropub/)).toHaveTextContent(
      `Give them the Micropub endpoint ${appConfig().appUrl}/micropub.`,
    );
    expect(within(panel()).queryByRole('list', { name: 'Your tokens' })).toBeNull();
  });

  it('starts with Create posts and Upload images, and sends the scopes ticked and no expiry', async () => {
    const server = tokensServer();
    const { user } = renderSettings();
    await within(panel()).findByText('No tokens yet.');
    const checked = (name: string) => within(form()).getByRole('checkbox', { name }) as HTMLInputElement;
    expect(
      [
        'Create posts',
        'Edit posts',
        'Delete posts',
        'Restore deleted posts',
        'Upload images',
        'Create drafts only',
      ].map((name) => [name, checked(name).checked]),
    ).toEqual([
      ['Create posts', true],
      ['Edit posts', false],
      ['Delete posts', false],
      ['Restore deleted posts', false],
      ['Upload images', true],
      ['Create drafts only', false],
    ]);
    expect(checked('Create drafts only')).toHaveAccessibleDescription(
      'Without Create posts, the app can only make drafts.',
    );

    await user.type(within(form()).getByRole('textbox', { name: 'Name' }), ' Drafts ');
    await user.click(within(form()).getByRole('button', { name: 'Create token' }));
    await within(panel()).findByRole('button', { name: 'Done' });
    expect(server.sent('POST', tokensPath).map((r) => r.body)).toEqual([
      { name: 'Drafts', scopes: ['create', 'media'] },
    ]);
  });

  it('shows the new token once, to copy, and puts it at the top of the list', async () => {
    const server = tokensServer([aToken(1, { name: 'Old script' })]);
    const { user } = renderSettings();
    await within(panel()).findByRole('list', { name: 'Your tokens' });

    await user.type(within(form()).getByRole('textbox', { name: 'Name' }), 'iA Writer');
    await user.click(within(form()).getByRole('checkbox', { name: 'Edit posts' }));
    await user.click(within(form()).getByRole('checkbox', { name: 'Upload images' }));
    fireEvent.change(within(form()).getByLabelText('Expires on'), { target: { value: '2027-01-31' } });
    await user.click(within(form()).getByRole('button', { name: 'Create token' }));

    const shown = await within(panel()).findByRole('textbox', { name: 'Token “iA Writer”' });
    expect(shown).toHaveValue(SECRET);
    expect(shown).toHaveAttribute('readonly');
    expect(shown).toHaveFocus();
    expect(shown).toHaveAccessibleDescription(SHOWN_ONCE);
    expect(within(panel()).getByText('Copy this token now: it will not be shown again.')).toBeInTheDocument();
    expect(server.sent('POST', tokensPath).map((r) => r.body)).toEqual([
      { name: 'iA Writer', scopes: ['create', 'update'], expires_at: '2027-01-31T23:59:59Z' },
    ]);

    const rows = within(list()).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('iA Writer');
    expect(rows[0]).toHaveTextContent('Create posts, Edit posts');
    expect(rows[0]).toHaveTextContent(`…${SECRET.slice(-4)}`);
    expect(rows[0]).toHaveTextContent(`Expires ${expiryDate('2027-01-31T23:59:59Z')}`);
    expect(rows[0]).not.toHaveTextContent(SECRET);
    expect(rows[1]).toHaveTextContent('Old script');

    await user.click(within(panel()).getByRole('button', { name: 'Copy the token' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(within(panel()).getByRole('button', { name: 'Copied the token' })).toHaveTextContent('Copied');

    await user.click(within(panel()).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(screen.queryByText(SHOWN_ONCE)).toBeNull();
    const name = within(form()).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('');
    expect(name).toHaveFocus();
    expect(within(form()).getByRole('checkbox', { name: 'Edit posts' })).not.toBeChecked();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(2);
  });

  it("shows the server's messages under their fields, and the others under the button", async () => {
    tokensServer([], {
      [`POST ${tokensPath}`]: (request) => {
        const body = request.body as { name: string; scopes: string[] };
        if (body.name === 'Busy') return errors(422, { blog: TOO_MANY });
        return errors(
          422,
          ...[
            ...(body.name === '' ? [{ name: NAME_BLANK }] : []),
            ...(body.scopes.length === 0 ? [{ scopes: NO_SCOPE }] : []),
            { expiresAt: 'Should be in the future' },
          ],
        );
      },
    });
    const { user } = renderSettings();
    await within(panel()).findByText('No tokens yet.');
    await user.click(within(form()).getByRole('checkbox', { name: 'Create posts' }));
    await user.click(within(form()).getByRole('checkbox', { name: 'Upload images' }));
    fireEvent.change(within(form()).getByLabelText('Expires on'), { target: { value: '2020-01-01' } });
    await user.click(within(form()).getByRole('button', { name: 'Create token' }));

    const name = within(form()).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(expect.stringContaining(NAME_BLANK));
    expect(within(form()).getByRole('group', { name: 'What it may do' })).toHaveAccessibleDescription(NO_SCOPE);
    const expiry = within(form()).getByLabelText('Expires on');
    expect(expiry).toHaveAttribute('aria-invalid', 'true');
    expect(expiry).toHaveAccessibleDescription(expect.stringContaining('Should be in the future'));
    expect(
      within(form())
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual([NAME_BLANK, NO_SCOPE, 'Should be in the future']);

    // Editing forgets the messages; a refusal about the blog shows under the button.
    await user.type(name, 'Busy');
    expect(within(form()).queryByRole('alert')).toBeNull();
    expect(name).not.toHaveAttribute('aria-invalid');
    await user.click(within(form()).getByRole('button', { name: 'Create token' }));
    expect(await within(form()).findByRole('alert')).toHaveTextContent(TOO_MANY);
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(within(panel()).getByText('No tokens yet.')).toBeInTheDocument();
  });

  it('lists each token with its scopes, last 4, dates, expiry and the app it signed in from', async () => {
    const day = 24 * 60 * 60 * 1000;
    const later = new Date(Date.now() + 30 * day).toISOString();
    tokensServer([
      aToken(3, {
        name: 'Quill',
        scopes: ['create', 'update', 'delete', 'undelete', 'media'],
        last4: '9f3c',
        clientId: 'https://quill.p3k.io/',
        createdAt: '2026-11-28T09:00:00.000Z',
        lastUsedAt: '2026-11-29T15:00:00.000Z',
        expiresAt: later,
      }),
      aToken(2, { name: 'Old laptop', scopes: ['draft'], last4: '77aa', expiresAt: '2026-01-01T23:59:59Z' }),
      aToken(1, { name: 'Backup script', last4: '0b0b' }),
    ]);
    renderSettings();
    await within(panel()).findByRole('list', { name: 'Your tokens' });
    const [quill, laptop, script] = within(list()).getAllByRole('listitem');

    expect(quill).toHaveTextContent('Quill');
    expect(quill).toHaveTextContent('Create posts, Edit posts, Delete posts, Restore deleted posts, Upload images');
    expect(
      line(
        quill!,
        `…9f3c · Created ${localDate('2026-11-28T09:00:00.000Z')} · Last used ${localDate('2026-11-29T15:00:00.000Z')} · Expires ${expiryDate(later)}`,
      ),
    ).toBeInTheDocument();
    expect(quill).toHaveTextContent('Signed in from https://quill.p3k.io/');

    expect(laptop).toHaveTextContent('Old laptop');
    expect(laptop).toHaveTextContent('Create drafts only');
    expect(
      line(laptop!, `…77aa · Created ${localDate('2026-11-20T10:00:00.000Z')} · Never used · Expired`),
    ).toBeInTheDocument();
    expect(laptop).not.toHaveTextContent('Signed in from');

    // No expiry: the line ends with its use.
    expect(line(script!, `…0b0b · Created ${localDate('2026-11-20T10:00:00.000Z')} · Never used`)).toBeInTheDocument();
    expect(script).not.toHaveTextContent(/Expire/);
    expect(within(script!).getByRole('button', { name: 'Revoke Backup script' })).toHaveTextContent('Revoke');
  });

  it('revokes a token once confirmed, and keeps it when the owner cancels', async () => {
    const server = tokensServer([aToken(2, { name: 'Drafts' }), aToken(1, { name: 'Obsidian' })]);
    const { user } = renderSettings();
    await within(panel()).findByRole('list', { name: 'Your tokens' });

    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(list()).getByRole('button', { name: 'Revoke Obsidian' }));
    expect(confirm).toHaveBeenCalledWith(revokeTokenQuestion('Obsidian'));
    expect(server.sent('DELETE', `${tokensPath}/1`)).toHaveLength(0);
    expect(within(list()).getAllByRole('listitem')).toHaveLength(2);

    await user.click(within(list()).getByRole('button', { name: 'Revoke Obsidian' }));
    await waitFor(() => expect(within(list()).queryByText('Obsidian')).toBeNull());
    expect(server.sent('DELETE', `${tokensPath}/1`)).toHaveLength(1);
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list()).getByText('Drafts')).toBeInTheDocument();
    expect(within(panel()).queryByRole('alert')).toBeNull();
  });

  it('takes a token revoked elsewhere off the list too, and says when none is left', async () => {
    const server = tokensServer([aToken(1, { name: 'Drafts' })]);
    const { user } = renderSettings();
    await within(panel()).findByRole('list', { name: 'Your tokens' });
    server.state.tokens = [];

    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click(within(list()).getByRole('button', { name: 'Revoke Drafts' }));
    expect(await within(panel()).findByText('No tokens yet.')).toBeInTheDocument();
    expect(server.sent('DELETE', `${tokensPath}/1`)).toHaveLength(1);
    expect(within(panel()).queryByRole('alert')).toBeNull();
  });
});
