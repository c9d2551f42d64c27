import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import { fakePopup, postFromCallback } from '../../test/fake-popup';
import { renderSettings, settingsServer } from '../../test/fake-settings';

const panel = () => screen.getByRole('region', { name: 'Social Accounts' });
const AUTHORIZE = 'http://localhost:8080/dev-idp/authorize?nonce=n1';
/** The blog of an owner whose only account is with another provider than this server's. */
const notConnected = { ...alice.blog, socialAccounts: [{ ...alice.blog.socialAccounts[0]!, provider: 'Google' }] };

describe('settings: social accounts', () => {
  it("says 'Connected' when one of the owner's accounts is with the sign-in provider", () => {
    settingsServer();
    renderSettings();
    expect(within(panel()).getByText('Local')).toBeInTheDocument();
    expect(within(panel()).getByText('Connected')).toBeInTheDocument();
    expect(within(panel()).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Connect' })).toBeNull();
  });

  it("offers 'Connect' otherwise: the provider popup, then the token is posted and the entry says 'Connected'", async () => {
    const server = settingsServer(
      {
        'POST /api/auth/nonce': () => json({ nonce: 'n1', authorizationUrl: AUTHORIZE }),
        'POST /api/my/social_accounts': () => {
          const account = { id: 2, provider: 'Local', email: 'alice@local.test', createdAt: '2026-11-22T00:00:00Z' };
          server.state.blog = { ...server.state.blog, socialAccounts: [...server.state.blog.socialAccounts, account] };
          return json({ socialAccount: account }, 201);
        },
      },
      notConnected,
    );
    const { popup, open } = fakePopup();
    const { user } = renderSettings({ blog: notConnected });
    expect(within(panel()).queryByText('Connected')).toBeNull();

    const connect = within(panel()).getByRole('button', { name: 'Connect' });
    await user.click(connect);
    expect(open).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZE));
    expect(connect).toBeDisabled();

    postFromCallback({ idToken: 'token-1' });
    expect(await within(panel()).findByText('Connected')).toBeInTheDocument();
    expect(server.sent('POST', '/api/my/social_accounts').map((r) => r.body)).toEqual([{ id_token: 'token-1' }]);
    expect(within(panel()).getByText('alice@local.test')).toBeInTheDocument();
    expect(popup.close).toHaveBeenCalled();
  });

  it("shows the server's message when the account belongs to another user, and 'Connect' comes back", async () => {
    settingsServer(
      {
        'POST /api/auth/nonce': () => json({ nonce: 'n1', authorizationUrl: AUTHORIZE }),
        'POST /api/my/social_accounts': () =>
          errors(422, { idToken: 'This account is already connected to another Quire user' }),
      },
      notConnected,
    );
    const { popup } = fakePopup();
    const { user } = renderSettings({ blog: notConnected });
    await user.click(within(panel()).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZE));
    postFromCallback({ idToken: 'token-2' });

    expect(await within(panel()).findByRole('alert')).toHaveTextContent(
      'This account is already connected to another Quire user',
    );
    expect(within(panel()).getByRole('button', { name: 'Connect' })).toBeEnabled();
    expect(within(panel()).queryByText('Connected')).toBeNull();
  });

  it('gives the button back when the user closes the popup', async () => {
    const server = settingsServer(
      { 'POST /api/auth/nonce': () => json({ nonce: 'n1', authorizationUrl: AUTHORIZE }) },
      notConnected,
    );
    const { popup } = fakePopup();
    const { user } = renderSettings({ blog: notConnected });
    const connect = within(panel()).getByRole('button', { name: 'Connect' });
    await user.click(connect);
    await waitFor(() => expect(popup.location.href).toBe(AUTHORIZE));
    popup.closed = true;
    await waitFor(() => expect(connect).toBeEnabled());
    expect(within(panel()).queryByRole('alert')).toBeNull();
    expect(server.sent('POST', '/api/my/social_accounts')).toHaveLength(0);
  });

  it('says so when the browser blocks the popup', async () => {
    settingsServer({}, notConnected);
    fakePopup({ blocked: true });
    const { user } = renderSettings({ blog: notConnected });
    await user.click(within(panel()).getByRole('button', { name: 'Connect' }));
    expect(within(panel()).getByRole('alert')).toHaveTextContent('Your browser blocked the sign-in window.');
  });
});
