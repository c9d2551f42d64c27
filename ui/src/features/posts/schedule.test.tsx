import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errors, fakeApi, injectConfig } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';
import { fixtureScheduleRules, scheduleNow, scheduleRulesCases } from '../../test/schedule-rules-fixture';
import { primaryLabel } from './editor-state';
import { checkPublishAt, parseLocalInput, toLocalInput } from './schedule';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));
beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('scrollTo', vi.fn());
});

const POSTS = '/api/my/blogs/7/posts';
const button = (name: string) => screen.getByRole('button', { name });
/** The date input's value for now plus `ms`, in the browser's time zone. */
const localIn = (ms: number) => toLocalInput(new Date(Date.now() + ms).toISOString());
const DAY = 86_400_000;

describe('the scheduling rules', () => {
  it("give the server's messages for every case of the shared fixture", () => {
    const rules = fixtureScheduleRules();
    const cases = scheduleRulesCases.filter((c) => !c.serverOnly);
    expect(cases.length).toBeGreaterThanOrEqual(6);
    for (const c of cases) {
      const at = new Date(c.publishAt);
      expect(checkPublishAt(at, scheduleNow, rules), c.publishAt).toBe(c.error);
      if (c.stored) expect(at.toISOString(), c.publishAt).toBe(c.stored);
    }
  });

  it('read and write the date input in local time, refusing dates that do not exist', () => {
    const value = '2030-01-31T09:05';
    const at = parseLocalInput(value);
    expect(at?.getHours()).toBe(9);
    expect(toLocalInput(at!.toISOString())).toBe(value);
    expect(toLocalInput(new Date(2030, 0, 31, 9, 5, 7).toISOString())).toBe('2030-01-31T09:05:07');
    expect(parseLocalInput('2030-01-31T09:05:07.000')?.getSeconds()).toBe(7);
    expect(parseLocalInput('2030-02-30T09:00')).toBeNull();
    expect(parseLocalInput('')).toBeNull();
    expect(parseLocalInput('tomorrow')).toBeNull();
  });

  it("label the primary button 'Schedule' for a time to come, and keep the product's labels otherwise", () => {
    const now = new Date(2030, 0, 1, 12, 0);
    const later = '2030-01-02T08:00';
    const earlier = '2029-12-31T08:00';
    expect(primaryLabel({ persisted: false, publishedAt: null, draft: false, publishAt: later }, now)).toBe('Schedule');
    expect(primaryLabel({ persisted: true, publishedAt: null, draft: false, publishAt: later }, now)).toBe('Schedule');
    expect(primaryLabel({ persisted: false, publishedAt: null, draft: false, publishAt: earlier }, now)).toBe(
      'Publish',
    );
    expect(primaryLabel({ persisted: false, publishedAt: null, draft: false, publishAt: '' }, now)).toBe('Publish');
    expect(primaryLabel({ persisted: false, publishedAt: null, draft: true, publishAt: later }, now)).toBe(
      'Save as Draft',
    );
    expect(primaryLabel({ persisted: true, publishedAt: null, draft: true, publishAt: later }, now)).toBe('Publish');
    expect(
      primaryLabel({ persisted: true, publishedAt: '2029-01-01T00:00:00Z', draft: false, publishAt: later }, now),
    ).toBe('Save');
  });
});

describe("the editor's 'Publish at' field", () => {
  async function openNew() {
    const rendered = renderRoute('/d/posts/new');
    await screen.findByRole('heading', { level: 1, name: 'New Post' });
    const heading = within(screen.getByRole('group', { name: /^Block 1: / })).getByRole('textbox', { name: 'Heading' });
    await rendered.user.type(heading, 'Later');
    const paragraph = within(screen.getByRole('group', { name: /^Block 2: / })).getByRole('textbox', {
      name: 'Paragraph',
    });
    await rendered.user.type(paragraph, 'Words');
    return rendered;
  }

  it("schedules a new post: 'Schedule', the local time sent in UTC, and 'Scheduled' with its date in the list", async () => {
    const server = fakeApi(postsServer().handlers);
    const { history } = await openNew();
    const input = screen.getByLabelText('Publish at');
    expect(input).toHaveAttribute('type', 'datetime-local');
    expect(button('Publish')).toBeInTheDocument();
    const value = localIn(2 * DAY);
    fireEvent.change(input, { target: { value } });
    fireEvent.click(button('Schedule'));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    const sent = server.sent('POST', POSTS)[0]?.body as { publish_at: string; draft: boolean };
    expect(sent.draft).toBe(false);
    expect(sent.publish_at).toBe(parseLocalInput(value)!.toISOString());
    const card = (await screen.findByRole('link', { name: 'Later' })).closest('article')!;
    expect(within(card).getByText(/^Scheduled/)).toBeInTheDocument();
    expect(card.querySelector('time')).toHaveAttribute('datetime', sent.publish_at);
    expect(within(card).queryByRole('link', { name: 'Read' })).toBeNull();
  });

  it('refuses a time already past before sending, and shows the server refusing one', async () => {
    const server = fakeApi(
      postsServer([], { [`POST ${POSTS}`]: () => errors(422, { publishAt: 'Should be at most 10 years ahead' }) })
        .handlers,
    );
    await openNew();
    const input = screen.getByLabelText('Publish at');
    fireEvent.change(input, { target: { value: localIn(-DAY) } });
    fireEvent.click(button('Publish'));
    expect(await screen.findByText('Should be in the future')).toBeInTheDocument();
    expect(server.sent('POST', POSTS)).toEqual([]);

    fireEvent.change(input, { target: { value: localIn(DAY) } });
    fireEvent.click(button('Schedule'));
    expect(await screen.findByText('Should be at most 10 years ahead')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('is off for a draft and absent from a published post; a scheduled post opens with its time', async () => {
    const when = new Date(Math.floor((Date.now() + 3 * DAY) / 1000) * 1000 + 7000).toISOString();
    const scheduled = samplePost(3, { title: 'Planned', publishedAt: null, scheduledAt: when });
    const published = samplePost(4, { title: 'Out' });
    fakeApi(postsServer([scheduled, published]).handlers);
    renderRoute(`/d/posts/${scheduled.shortId}/edit`);
    expect(await screen.findByRole('button', { name: 'Schedule' })).toBeInTheDocument();
    const input = screen.getByLabelText('Publish at');
    // The browser may write the seconds as '07' or '07.000'.
    expect(parseLocalInput((input as HTMLInputElement).value)?.toISOString()).toBe(when);
    expect(input).toHaveAttribute('step', '1'); // seconds are kept, never cut into the past
    fireEvent.click(screen.getByRole('checkbox', { name: 'Mark as draft' }));
    expect(input).toBeDisabled();
  });
});

describe('the preview link control', () => {
  const draft = samplePost(5, { title: 'Draft one', publishedAt: null });

  it('creates a link, copies it to the clipboard, and revokes it', async () => {
    const server = fakeApi(postsServer([draft]).handlers);
    const { user } = renderRoute(`/d/posts/${draft.shortId}/edit`);
    const region = await screen.findByRole('region', { name: 'Preview link' });
    await user.click(await within(region).findByRole('button', { name: 'Create preview link' }));
    const address = await within(region).findByRole('textbox', { name: 'Preview link address' });
    expect((address as HTMLInputElement).value).toMatch(/^http:\/\/alice\.localhost:8080\/preview\/[0-9a-f]{32}/);
    await user.click(within(region).getByRole('button', { name: 'Copy link' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe((address as HTMLInputElement).value);
    expect(within(region).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Revoke link' }));
    expect(await within(region).findByRole('button', { name: 'Create preview link' })).toBeInTheDocument();
    expect(server.sent('DELETE', `${POSTS}/${draft.shortId}/preview_link`)).toHaveLength(1);
  });

  it('says a link exists without showing it again, and is absent from published and new posts', async () => {
    const published = samplePost(6, { title: 'Out' });
    fakeApi(
      postsServer([draft, published], {
        [`GET ${POSTS}/${draft.shortId}/preview_link`]: () =>
          new Response(JSON.stringify({ previewLink: { createdAt: '2026-05-04T11:00:00Z' } }), {
            headers: { 'Content-Type': 'application/json' },
          }),
      }).handlers,
    );
    const first = renderRoute(`/d/posts/${draft.shortId}/edit`);
    const region = await screen.findByRole('region', { name: 'Preview link' });
    expect(await within(region).findByText(/A preview link was created on/)).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'New link' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Revoke link' })).toBeInTheDocument();
    first.unmount();

    const second = renderRoute(`/d/posts/${published.shortId}/edit`);
    expect(await screen.findByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Preview link' })).toBeNull();
    second.unmount();

    renderRoute('/d/posts/new');
    await screen.findByRole('heading', { level: 1, name: 'New Post' });
    expect(screen.queryByRole('region', { name: 'Preview link' })).toBeNull();
  });
});
