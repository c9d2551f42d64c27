import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import { renderSettings, settingsServer } from '../../test/fake-settings';

const path = `/api/my/blogs/${alice.blog.id}`;
const account = () => screen.getByRole('region', { name: 'Account' });

async function openDangerZone(user: ReturnType<typeof renderSettings>['user']) {
  const toggle = within(account()).getByRole('button', { name: 'Danger Zone!' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await user.click(toggle);
  return within(account()).getByRole('region', { name: 'Danger Zone!' });
}

describe('settings: account', () => {
  it("keeps the 'Danger Zone!' collapsed, with the warning, and 'Delete Account' disabled until the checkbox is ticked", async () => {
    settingsServer();
    const { user } = renderSettings();
    expect(within(account()).queryByRole('button', { name: 'Delete Account' })).toBeNull();

    const zone = await openDangerZone(user);
    expect(zone).toHaveTextContent(/removes all of its posts permanently/);
    expect(zone).toHaveTextContent(/This cannot be undone\./);
    expect(zone).toHaveTextContent(/The same subdomain cannot be used to sign up again\./);
    const remove = within(zone).getByRole('button', { name: 'Delete Account' });
    const understand = within(zone).getByRole('checkbox', { name: "I understand what I'm going to do." });
    expect(understand).not.toBeChecked();
    expect(remove).toBeDisabled();

    await user.click(understand);
    expect(remove).toBeEnabled();
    await user.click(understand);
    expect(remove).toBeDisabled();
  });

  it('deletes the account with one request however often it is clicked, then goes to /', async () => {
    let answer: (response: Response) => void = () => undefined;
    const server = settingsServer({ [`DELETE ${path}`]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { user, history } = renderSettings();
    const zone = await openDangerZone(user);
    await user.click(within(zone).getByRole('checkbox', { name: "I understand what I'm going to do." }));
    const remove = within(zone).getByRole('button', { name: 'Delete Account' });

    await user.dblClick(remove);
    expect(remove).toBeDisabled();
    expect(remove).toHaveAttribute('aria-busy', 'true');
    await user.click(remove);
    expect(server.sent('DELETE', path)).toHaveLength(1);

    answer(json({}));
    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
  });

  it("shows the server's message and stays when deleting fails", async () => {
    settingsServer({ [`DELETE ${path}`]: () => errors(500, { server: 'Something went wrong (request id 42)' }) });
    const { user, history } = renderSettings();
    const zone = await openDangerZone(user);
    await user.click(within(zone).getByRole('checkbox', { name: "I understand what I'm going to do." }));
    await user.click(within(zone).getByRole('button', { name: 'Delete Account' }));

    expect(await within(zone).findByRole('alert')).toHaveTextContent('Something went wrong (request id 42)');
    await waitFor(() => expect(within(zone).getByRole('button', { name: 'Delete Account' })).toBeEnabled());
    expect(history.location.pathname).toBe('/d/settings');
  });
});
