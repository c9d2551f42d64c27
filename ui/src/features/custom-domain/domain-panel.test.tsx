import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, errors, json } from '../../test/fake-api';
import type { CustomDomain } from './api';
import { DOMAIN_POLL_MS, REMOVE_DOMAIN_QUESTION } from './domain-panel';
import { localTime } from '../../lib/local-time';
import { renderSettings, settingsServer } from '../../test/fake-settings';

const blogPath = `/api/my/blogs/${alice.blog.id}`;
const path = `${blogPath}/domain`;
const TOKEN = 'quire-verify=0123456789abcdef0123456789abcdef';
const NOT_PUBLIC = "This name can't be reached from the internet (localhost, .local, .internal, .arpa, .onion)";
const NO_TXT = 'No TXT record at _quire.blog.example.org yet';
const OTHER_TOKEN = 'The TXT record of _quire.blog.example.org has another token';
const NOT_REACHED = 'Let’s Encrypt could not reach blog.example.org here';
const NOT_AFTER = '2027-02-22T08:00:00.000Z';
const RETRY_AT = '2026-11-24T09:00:00.000Z';
const VALID_UNTIL = new Date(NOT_AFTER).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** blog.example.org as the server describes it: waiting for DNS, unless `overrides` say otherwise. */
function aDomain(overrides: Partial<CustomDomain> = {}): CustomDomain {
  const name = overrides.name ?? 'blog.example.org';
  return {
    name,
    displayName: name,
    state: 'waiting_for_dns',
    error: null,
    records: [
      { type: 'TXT', name: `_quire.${name}`, value: TOKEN },
      { type: 'CNAME', name, value: 'alice.example.com' },
    ],
    checkedAt: null,
    verifiedAt: null,
    nextCheckAt: '2026-11-24T08:01:00.000Z',
    certificate: { state: 'not_managed' },
    ...overrides,
  };
}

/**
 * A fake quire whose blog has `start` as its domain: PUT sets a name (refusing `localhost` the
 * server's way), POST check answers with `checked()` (a Response is sent as it is), DELETE removes.
 */
function domainServer(start: CustomDomain | null, checked: () => CustomDomain | Response = () => aDomain()) {
  const state = { domain: start };
  const server = settingsServer({
    [`GET ${path}`]: () => json({ domain: state.domain }),
    [`PUT ${path}`]: (request) => {
      const name = (request.body as { name: string }).name;
      if (name === 'localhost') {
        return errors(422, { name: NOT_PUBLIC });
      }
      state.domain = aDomain({ name: name.toLowerCase().replace(/\.$/, '') });
      return json({ domain: state.domain });
    },
    [`POST ${path}/check`]: () => {
      const answer = checked();
      if (answer instanceof Response) return answer;
      state.domain = answer;
      return json({ domain: state.domain });
    },
    [`DELETE ${path}`]: () => {
      state.domain = null;
      return new Response(null, { status: 204 });
    },
  });
  return { ...server, state };
}

const panel = () => screen.getByRole('region', { name: 'Custom domain' });
const status = () => within(panel()).getByRole('status', { name: 'Domain status' });

afterEach(() => {
  vi.useRealTimers();
});

describe('settings: custom domain', () => {
  it('sets the trimmed name, then shows the records to create, each with a Copy button', async () => {
    const server = domainServer(null);
    const { user } = renderSettings();
    const input = await within(panel()).findByRole('textbox', { name: 'Domain name' });
    await user.type(input, '  Blog.Example.org.  ');
    await user.click(within(panel()).getByRole('button', { name: 'Save' }));

    expect(server.sent('PUT', path).map((r) => r.body)).toEqual([{ name: 'Blog.Example.org.' }]);
    const table = await within(panel()).findByRole('table', { name: 'Create these records at your DNS provider' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['TXT', '_quire.blog.example.org', TOKEN],
      ['CNAME', 'blog.example.org', 'alice.example.com'],
    ]);
    const note = /can't have a CNAME record: give it A and AAAA records with the same addresses as localhost instead/;
    expect(within(panel()).getByText(note)).toBeInTheDocument();
    expect(within(status()).getByText('Waiting for DNS')).toBeInTheDocument();
    expect(within(panel()).queryByText(/Keep these records/)).toBeNull();
    expect(within(panel()).queryByRole('textbox', { name: 'Domain name' })).toBeNull();

    await user.click(within(table).getByRole('button', { name: "Copy the TXT record's value" }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
    expect(within(table).getByRole('button', { name: "Copied the TXT record's value" })).toHaveTextContent('Copied');
    await user.click(within(table).getByRole('button', { name: "Copy the CNAME record's value" }));
    expect(await navigator.clipboard.readText()).toBe('alice.example.com');
    expect(within(table).getByRole('button', { name: "Copy the TXT record's value" })).toHaveTextContent('Copy');
  });

  it("shows the server's message under the field for a refused name, until the name is edited", async () => {
    domainServer(null);
    const { user } = renderSettings();
    const input = await within(panel()).findByRole('textbox', { name: 'Domain name' });
    await user.type(input, 'localhost');
    await user.click(within(panel()).getByRole('button', { name: 'Save' }));

    expect(await within(panel()).findByRole('alert')).toHaveTextContent(NOT_PUBLIC);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(NOT_PUBLIC);
    expect(input).toHaveValue('localhost');
    await user.type(input, '.example');
    expect(within(panel()).queryByRole('alert')).toBeNull();
  });

  it.each([
    [aDomain(), ['Waiting for DNS'], []],
    [aDomain({ error: NO_TXT }), ['Waiting for DNS', NO_TXT], []],
    [aDomain({ state: 'verified', verifiedAt: '2026-11-24T08:00:00.000Z' }), ['Verified'], ['Certificate']],
    [aDomain({ state: 'error', error: OTHER_TOKEN }), ['Error', OTHER_TOKEN], []],
    [aDomain({ state: 'verified', certificate: { state: 'pending' } }), ['Verified', 'Getting a certificate…'], []],
    [
      aDomain({ state: 'verified', certificate: { state: 'issued', notAfter: NOT_AFTER } }),
      ['Verified', `Certificate issued, valid until ${VALID_UNTIL}`],
      [],
    ],
    [
      aDomain({ state: 'verified', certificate: { state: 'error', error: NOT_REACHED, retryAt: RETRY_AT } }),
      ['Verified', `Certificate error: ${NOT_REACHED}, next try ${localTime(RETRY_AT)}`],
      [],
    ],
  ])('says where the domain stands (case %#)', async (domain, words, absent) => {
    domainServer(domain);
    renderSettings();
    expect(await within(panel()).findByRole('status', { name: 'Domain status' })).toBeInTheDocument();
    for (const text of words) expect(within(status()).getByText(text)).toBeInTheDocument();
    for (const text of absent) expect(status()).not.toHaveTextContent(text);
  });

  it('shows a Unicode name with its A-label, and when the records were checked and are checked next', async () => {
    domainServer(
      aDomain({
        name: 'xn--bcher-kva.example',
        displayName: 'bücher.example',
        checkedAt: '2026-11-24T08:00:00.000Z',
        nextCheckAt: '2026-11-24T08:01:00.000Z',
      }),
    );
    renderSettings();
    expect(await within(panel()).findByText('bücher.example')).toBeInTheDocument();
    expect(within(panel()).getByText('In DNS: xn--bcher-kva.example')).toBeInTheDocument();
    expect(within(panel()).getByText(`Last checked ${localTime('2026-11-24T08:00:00.000Z')}.`)).toBeInTheDocument();
    expect(within(panel()).getByText(`Next check ${localTime('2026-11-24T08:01:00.000Z')}.`)).toBeInTheDocument();
  });

  it("checks now: shows the server's 429 message, then 'Verified', and the owner area reloads the blog", async () => {
    const answers: (CustomDomain | Response)[] = [
      errors(429, { check: 'Checked a moment ago: try again in 7 seconds' }),
      aDomain({ state: 'verified', verifiedAt: '2026-11-24T08:00:10.000Z' }),
    ];
    const server = domainServer(aDomain(), () => answers.shift() ?? aDomain());
    const { user } = renderSettings();
    const check = await within(panel()).findByRole('button', { name: 'Check now' });

    await user.click(check);
    expect(await within(panel()).findByRole('alert')).toHaveTextContent('Checked a moment ago: try again in 7 seconds');
    expect(within(status()).getByText('Waiting for DNS')).toBeInTheDocument();

    const blogReads = server.sent('GET', blogPath).length;
    await user.click(check);
    expect(await within(status()).findByText('Verified')).toBeInTheDocument();
    expect(within(panel()).getByText('Keep these records: Quire checks the TXT record every day.')).toBeInTheDocument();
    expect(within(panel()).queryByRole('alert')).toBeNull();
    expect(server.sent('POST', `${path}/check`)).toHaveLength(2);
    await waitFor(() => expect(server.sent('GET', blogPath).length).toBe(blogReads + 1));
  });

  it('removes the domain only once the owner confirms, and offers the form again', async () => {
    const server = domainServer(aDomain());
    const { user } = renderSettings();
    const remove = await within(panel()).findByRole('button', { name: 'Remove domain' });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);

    await user.click(remove);
    expect(confirm).toHaveBeenCalledWith(REMOVE_DOMAIN_QUESTION);
    expect(server.sent('DELETE', path)).toEqual([]);
    expect(within(panel()).getByRole('table')).toBeInTheDocument();

    await user.click(remove);
    expect(await within(panel()).findByRole('textbox', { name: 'Domain name' })).toHaveValue('');
    expect(server.sent('DELETE', path)).toHaveLength(1);
    expect(within(panel()).queryByRole('table')).toBeNull();
  });

  it('loads the domain again every 10 s while waiting, and stops once it is verified with a certificate', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = domainServer(aDomain());
    renderSettings({ advanceTimers: vi.advanceTimersByTime });
    expect(await within(panel()).findByText('Waiting for DNS')).toBeInTheDocument();
    const reads = () => server.sent('GET', path).length;
    expect(reads()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(DOMAIN_POLL_MS - 100));
    expect(reads()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(reads()).toBe(2));

    server.state.domain = aDomain({ state: 'verified', certificate: { state: 'pending' } });
    await act(() => vi.advanceTimersByTimeAsync(DOMAIN_POLL_MS));
    expect(await within(status()).findByText('Getting a certificate…')).toBeInTheDocument();
    expect(reads()).toBe(3);

    server.state.domain = aDomain({ state: 'verified', certificate: { state: 'issued', notAfter: NOT_AFTER } });
    await act(() => vi.advanceTimersByTimeAsync(DOMAIN_POLL_MS));
    expect(await within(status()).findByText(/Certificate issued/)).toBeInTheDocument();
    expect(reads()).toBe(4);

    await act(() => vi.advanceTimersByTimeAsync(DOMAIN_POLL_MS * 5));
    expect(reads()).toBe(4);
  });

  it('stops loading the domain when the settings screen is left', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = domainServer(aDomain());
    const { history } = renderSettings({ advanceTimers: vi.advanceTimersByTime });
    expect(await within(panel()).findByText('Waiting for DNS')).toBeInTheDocument();
    act(() => history.push('/'));
    expect(screen.getByRole('heading', { name: 'Landing' })).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(DOMAIN_POLL_MS * 3));
    expect(server.sent('GET', path)).toHaveLength(1);
  });
});
