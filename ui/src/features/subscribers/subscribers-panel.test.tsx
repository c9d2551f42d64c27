import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localTime } from '../../lib/local-time';
import { alice, errors, json, paged } from '../../test/fake-api';
import { renderSettings, settingsServer } from '../../test/fake-settings';
import type { EmailSettings, Subscriber } from './api';
import { CONSENT_LABEL } from './subscriber-import';
import { removeSubscriberQuestion } from './subscriber-list';

const emailPath = `/api/my/blogs/${alice.blog.id}/email`;
const listPath = `/api/my/blogs/${alice.blog.id}/subscribers`;
const NEEDS_CONSENT = 'Tick the box to say these readers agreed to get your posts by email.';
const NO_COLUMN = 'The file has no email column.';

/** alice's email settings: sending, nobody subscribed, unless `overrides` say otherwise. */
function anEmail(overrides: Partial<EmailSettings> = {}): EmailSettings {
  return {
    enabled: true,
    replyToOwner: false,
    notifyOwner: true,
    pausedAt: null,
    confirmed: 0,
    pending: 0,
    bounced: 0,
    canImport: true,
    importsLeftToday: 5000,
    ...overrides,
  };
}

/** Subscriber `n`, confirmed, at `n@readers.example`. */
const reader = (n: number, overrides: Partial<Subscriber> = {}): Subscriber => ({
  id: n,
  email: `r${n}@readers.example`,
  state: 'confirmed',
  source: 'form',
  subscribedAt: '2026-11-20T10:00:00.000Z',
  confirmedAt: '2026-11-20T10:03:00.000Z',
  lastSentAt: null,
  ...overrides,
});

/**
 * A fake quire keeping the email settings and the subscribers (paged by 50, searched and filtered
 * as the server does); the counts come from the list.
 */
function emailServer(
  start: EmailSettings,
  initial: Subscriber[] = [],
  extra: Parameters<typeof settingsServer>[0] = {},
) {
  const state = { email: start, subscribers: initial };
  const settings = (): EmailSettings => {
    const count = (s: Subscriber['state']) => state.subscribers.filter((r) => r.state === s).length;
    return { ...state.email, confirmed: count('confirmed'), pending: count('pending'), bounced: count('bounced') };
  };
  const answer = (next: Partial<EmailSettings> = {}) => {
    state.email = { ...state.email, ...next };
    return json({ email: settings() });
  };
  const server = settingsServer({
    [`GET ${emailPath}`]: () => answer(),
    [`PUT ${emailPath}`]: (request) => {
      const body = request.body as Record<string, boolean>;
      return answer({
        ...('enabled' in body && { enabled: body.enabled }),
        ...('reply_to_owner' in body && { replyToOwner: body.reply_to_owner }),
        ...('notify_owner' in body && { notifyOwner: body.notify_owner }),
      });
    },
    [`POST ${emailPath}/resume`]: () => answer({ pausedAt: null }),
    [`GET ${listPath}`]: (request) => {
      const params = new URL(request.path, 'http://x').searchParams;
      const page = Number(params.get('page') ?? '1');
      const q = params.get('q') ?? '';
      const wanted = params.get('state');
      const all = state.subscribers.filter((r) => r.email.includes(q) && (!wanted || r.state === wanted));
      if (page > Math.max(1, Math.ceil(all.length / 50))) return errors(400, { page: 'Should be from 1 to 1' });
      return paged({ subscribers: all.slice((page - 1) * 50, page * 50) }, page, 50, all.length);
    },
    ...Object.fromEntries(
      initial.map(({ id }) => [
        `DELETE ${listPath}/${id}`,
        () => {
          state.subscribers = state.subscribers.filter((r) => r.id !== id);
          return answer();
        },
      ]),
    ),
    ...extra,
  });
  return { ...server, state };
}

const panel = () => screen.getByRole('region', { name: 'Subscribers' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('settings: subscribers', () => {
  it('is not shown on an instance that sends no email', async () => {
    const server = emailServer(anEmail());
    renderSettings({ email: false });
    expect(await screen.findByRole('region', { name: 'Fediverse' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Subscribers' })).toBeNull();
    expect(server.requests.filter((r) => r.path.startsWith(emailPath) || r.path.startsWith(listPath))).toEqual([]);
  });

  it('says how many subscribe in each state, and lists them with their state', async () => {
    emailServer(anEmail(), [
      reader(1),
      reader(2),
      reader(3, { state: 'pending', confirmedAt: null }),
      reader(4, { state: 'bounced' }),
    ]);
    renderSettings({ email: true });
    expect(
      await within(panel()).findByText('2 confirmed · 1 waiting for confirmation · 1 bounced'),
    ).toBeInTheDocument();
    const table = await within(panel()).findByRole('table', { name: 'Subscribers' });
    const row = within(table).getByRole('row', { name: /r3@readers\.example/ });
    expect(within(row).getByText('Waiting')).toBeInTheDocument();
    expect(within(row).getAllByText('—')).toHaveLength(2);
  });

  it('says when nobody subscribes yet', async () => {
    emailServer(anEmail());
    renderSettings({ email: true });
    expect(await within(panel()).findByText('No subscribers yet.')).toBeInTheDocument();
    expect(within(panel()).queryByRole('table')).toBeNull();
  });

  it('saves each switch as soon as it is switched, sending only that switch', async () => {
    const server = emailServer(anEmail());
    const { user } = renderSettings({ email: true });
    const send = await within(panel()).findByRole('checkbox', { name: 'Send new posts by email' });
    expect(send).toBeChecked();
    expect(send).toHaveAccessibleDescription(/hides the subscribe form on your blog and drops the mail not yet sent/);
    await user.click(send);
    await waitFor(() => expect(send).not.toBeChecked());
    const replies = within(panel()).getByRole('checkbox', { name: 'Replies go to my address' });
    await user.click(replies);
    await waitFor(() => expect(replies).toBeChecked());
    const notify = within(panel()).getByRole('checkbox', { name: 'Email me when something waits for approval' });
    await user.click(notify);
    await waitFor(() => expect(notify).not.toBeChecked());
    expect(server.sent('PUT', emailPath).map((r) => r.body)).toEqual([
      { enabled: false },
      { reply_to_owner: true },
      { notify_owner: false },
    ]);
  });

  it('tells of a pause for bounces and resumes sending', async () => {
    const pausedAt = '2026-11-27T08:00:00.000Z';
    const server = emailServer(anEmail({ pausedAt }), [reader(1, { state: 'bounced' })]);
    const { user } = renderSettings({ email: true });
    const notice = await within(panel()).findByText(/too many addresses bounced/);
    expect(notice).toHaveTextContent(`Sending is paused since ${localTime(pausedAt)}`);
    await user.click(within(panel()).getByRole('button', { name: 'Resume sending' }));
    await waitFor(() => expect(within(panel()).queryByText(/too many addresses bounced/)).toBeNull());
    expect(server.sent('POST', `${emailPath}/resume`)).toHaveLength(1);
  });

  it('searches the addresses and filters by state, back on the first page', async () => {
    const server = emailServer(anEmail(), [
      reader(1, { email: 'ann@one.example' }),
      reader(2, { email: 'bob@two.example', state: 'pending', confirmedAt: null }),
      reader(3, { email: 'cat@one.example', state: 'bounced' }),
    ]);
    const { user } = renderSettings({ email: true });
    const table = await within(panel()).findByRole('table', { name: 'Subscribers' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(server.sent('GET', `${listPath}?page=1&page_size=50`)).toHaveLength(1);

    await user.type(within(panel()).getByRole('searchbox', { name: 'Address contains' }), ' one.example ');
    await user.click(within(panel()).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(within(panel()).queryByText('bob@two.example')).toBeNull());
    expect(server.sent('GET', `${listPath}?q=one.example&page=1&page_size=50`)).toHaveLength(1);

    await user.selectOptions(within(panel()).getByRole('combobox', { name: 'Show' }), 'Bounced');
    await waitFor(() => expect(within(panel()).queryByText('ann@one.example')).toBeNull());
    expect(within(panel()).getByText('cat@one.example')).toBeInTheDocument();
    expect(server.sent('GET', `${listPath}?q=one.example&state=bounced&page=1&page_size=50`)).toHaveLength(1);

    await user.selectOptions(within(panel()).getByRole('combobox', { name: 'Show' }), 'Waiting');
    expect(await within(panel()).findByText('No subscriber matches.')).toBeInTheDocument();
  });

  it('removes a subscriber once confirmed, and goes back a page when that empties the page', async () => {
    const many = Array.from({ length: 51 }, (_, i) => reader(i + 1));
    const last = many[50]!;
    const server = emailServer(anEmail(), many);
    const { user } = renderSettings({ email: true });
    await within(panel()).findByRole('table', { name: 'Subscribers' });
    expect(within(panel()).getByText('51 confirmed')).toBeInTheDocument();
    const pages = within(panel()).getByRole('navigation', { name: 'Pages' });
    await user.click(within(pages).getByRole('button', { name: 'Last' }));
    expect(await within(panel()).findByText(last.email)).toBeInTheDocument();
    expect(within(panel()).getAllByRole('button', { name: /^Remove / })).toHaveLength(1);

    const removePath = `${listPath}/${last.id}`;
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(panel()).getByRole('button', { name: `Remove ${last.email}` }));
    expect(confirm).toHaveBeenCalledWith(removeSubscriberQuestion(last.email));
    expect(server.sent('DELETE', removePath)).toHaveLength(0);
    await user.click(within(panel()).getByRole('button', { name: `Remove ${last.email}` }));
    expect(await within(panel()).findByText('50 confirmed')).toBeInTheDocument();
    expect(server.sent('DELETE', removePath)).toHaveLength(1);
    await waitFor(() => expect(within(panel()).queryByRole('navigation', { name: 'Pages' })).toBeNull());
    expect(within(panel()).getByText('r1@readers.example')).toBeInTheDocument();
    expect(within(panel()).queryByText(last.email)).toBeNull();
    expect(within(panel()).queryByRole('alert')).toBeNull();
  });

  it('links the CSV export for the browser to download', async () => {
    emailServer(anEmail());
    renderSettings({ email: true });
    const link = await within(panel()).findByRole('link', { name: 'Export CSV' });
    expect(link).toHaveAttribute('href', `${listPath}/export`);
    expect(link).toHaveAttribute('download');
  });
});

describe('settings: importing subscribers', () => {
  const ghostCsv = 'email,subscribed_to_emails\nann@one.example,true\n';
  const csvFile = (text = ghostCsv) => new File([text], 'members.csv', { type: 'text/csv' });

  it('sends the file with the consent, shows the outcome, the bad rows and the new counts', async () => {
    const server = emailServer(anEmail(), [], {
      [`POST ${listPath}/import`]: (request) => {
        const { consented } = request.body as { consented: boolean };
        if (!consented) return errors(422, { consented: NEEDS_CONSENT });
        server.state.subscribers = Array.from({ length: 118 }, (_, i) => reader(i + 1, { source: 'import' }));
        return json({
          import: {
            added: 118,
            already: 2,
            unsubscribed: 5,
            invalid: [{ line: 7, reason: 'This is not an email address.' }],
            invalidCount: 1,
          },
          email: { ...server.state.email, confirmed: 118, importsLeftToday: 4882 },
        });
      },
    });
    const { user } = renderSettings({ email: true });
    const input = await within(panel()).findByLabelText('CSV file');
    expect(input).toHaveAccessibleDescription('You may import 5,000 more subscribers today.');
    const button = within(panel()).getByRole('button', { name: 'Import' });
    expect(button).toBeDisabled();
    await user.upload(input, csvFile());

    await user.click(button);
    const consent = within(panel()).getByRole('checkbox', { name: CONSENT_LABEL });
    await waitFor(() => expect(consent).toHaveAccessibleDescription(NEEDS_CONSENT));
    expect(within(panel()).queryByRole('status')).toBeNull();

    await user.click(consent);
    expect(consent).not.toHaveAccessibleDescription(NEEDS_CONSENT);
    await user.click(button);
    const outcome = await within(panel()).findByRole('status');
    expect(outcome).toHaveTextContent(
      'Added 118 · 2 already subscribed · 5 unsubscribed there left out · 1 row not taken',
    );
    expect(within(outcome).getByRole('list', { name: 'Rows not taken' })).toHaveTextContent(
      'Line 7: This is not an email address.',
    );
    expect(within(panel()).getByText('118 confirmed')).toBeInTheDocument();
    expect(within(panel()).getByLabelText('CSV file')).toHaveAccessibleDescription(
      'You may import 4,882 more subscribers today.',
    );
    expect(server.sent('POST', `${listPath}/import`).map((r) => r.body)).toEqual([
      { csv: ghostCsv, consented: false },
      { csv: ghostCsv, consented: true },
    ]);
    // The next import asks for the file and the owner's word again.
    expect(consent).not.toBeChecked();
    expect(within(panel()).getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it("shows the server's refusal of the file under it, and others below the form", async () => {
    let answer = errors(422, { csv: NO_COLUMN });
    emailServer(anEmail(), [], { [`POST ${listPath}/import`]: () => answer });
    const { user } = renderSettings({ email: true });
    const input = await within(panel()).findByLabelText('CSV file');
    await user.upload(input, csvFile('name\nann\n'));
    await user.click(within(panel()).getByRole('checkbox', { name: CONSENT_LABEL }));
    await user.click(within(panel()).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(input).toHaveAccessibleDescription(new RegExp(NO_COLUMN)));

    answer = errors(403, { subscribers: 'Only an approved blog may import subscribers.' });
    await user.click(within(panel()).getByRole('button', { name: 'Import' }));
    expect(await within(panel()).findByRole('alert')).toHaveTextContent(
      'Only an approved blog may import subscribers.',
    );
    expect(input).not.toHaveAccessibleDescription(new RegExp(NO_COLUMN));
  });

  it('explains that a blog not yet approved cannot import', async () => {
    emailServer(anEmail({ canImport: false }));
    renderSettings({ email: true });
    expect(
      await within(panel()).findByText('Importing subscribers opens once your blog is approved.'),
    ).toBeInTheDocument();
    expect(within(panel()).queryByLabelText('CSV file')).toBeNull();
    expect(within(panel()).queryByRole('button', { name: 'Import' })).toBeNull();
  });
});
