import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOT_AN_ADMIN } from '../../app/routes/admin';
import { errors, fakeApi, injectConfig, json, paged, signedIn } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';
import type { AdminAction, AdminBlog, Report } from './api';
import { actionWords, actionsFor, ageOf, deleteQuestion, mailFigures } from './admin-screen';

beforeAll(() => injectConfig({ host: 'localhost:8080', providerName: 'Local' }));

afterEach(() => {
  vi.restoreAllMocks();
});

const HOSTILE = '<img src=x onerror=alert(1)>';

function aBlog(id: number, subdomain: string, overrides: Partial<AdminBlog> = {}): AdminBlog {
  return {
    id,
    subdomain,
    name: `${subdomain}'s blog`,
    ownerEmail: `${subdomain}@example.com`,
    state: 'new',
    stateReason: '',
    createdAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    flaggedAt: null,
    postCount: 2,
    riskScore: 90,
    riskExplanation: "41 links to 3 hosts in 2 posts; 'casino' ×3",
    linkHosts: [
      { host: 'casino.example', links: 30 },
      { host: 'pills.example', links: 8 },
      { host: 'a.example', links: 1 },
      { host: 'b.example', links: 1 },
      { host: 'c.example', links: 1 },
      { host: 'd.example', links: 1 },
    ],
    mail: { subscribers: 0, sentToday: 0, bounced: 0, pausedAt: null },
    ...overrides,
  };
}

function aReport(id: number, overrides: Partial<Report> = {}): Report {
  return {
    id,
    subdomain: 'spam',
    blogState: 'new',
    postUrl: '',
    reason: 'spam',
    reasonLabel: 'Spam',
    details: '',
    contactEmail: '',
    state: 'open',
    handledBy: null,
    handledAt: null,
    createdAt: '2026-11-28T09:00:00.000Z',
    ...overrides,
  };
}

/**
 * A fake quire with a review queue of `queue` and the open `reports`, moderating, deleting and
 * settling as the server does.
 */
function adminServer(queue: AdminBlog[], reports: Report[] = []) {
  const state = { queue: [...queue], actions: [] as AdminAction[], reports: [...reports] };
  const act = (subdomain: string, action: string, reason: string) =>
    state.actions.unshift({
      id: state.actions.length + 1,
      admin: 'alice@example.com',
      subdomain,
      action,
      reason,
      at: '2026-11-28T10:00:00.000Z',
    });
  return fakeApi({
    ...signedIn({ isAdmin: true }),
    'GET /api/admin/queue': (request) => {
      const order = new URL(request.path, 'http://x').searchParams.get('order');
      const blogs = order === 'risk' ? [...state.queue].sort((a, b) => b.riskScore - a.riskScore) : state.queue;
      return paged({ blogs }, 1, 10, blogs.length);
    },
    'GET /api/admin/blogs': (request) => {
      const q = new URL(request.path, 'http://x').searchParams.get('q') ?? '';
      const blogs = state.queue.filter((b) => b.subdomain.includes(q));
      return paged({ blogs }, 1, 10, blogs.length);
    },
    'GET /api/admin/actions': () => paged({ actions: state.actions }, 1, 10, state.actions.length),
    'POST /api/admin/blogs/spam/approve': () => {
      const blog = { ...state.queue.find((b) => b.subdomain === 'spam')!, state: 'approved' };
      state.queue = state.queue.filter((b) => b.subdomain !== 'spam');
      act('spam', 'approve', '');
      return json({ blog });
    },
    'POST /api/admin/blogs/spam/suspend': (request) => {
      const reason = (request.body as { reason: string }).reason;
      if (!reason) return errors(422, { reason: 'Say why the blog is suspended: its owner is shown the reason' });
      const blog = { ...state.queue.find((b) => b.subdomain === 'spam')!, state: 'suspended', stateReason: reason };
      state.queue = state.queue.filter((b) => b.subdomain !== 'spam');
      act('spam', 'suspend', reason);
      return json({ blog });
    },
    'GET /api/admin/reports': (request) => {
      const wanted = new URL(request.path, 'http://x').searchParams.get('state');
      const list = state.reports.filter((r) => r.state === wanted);
      return paged({ reports: list }, 1, 10, list.length);
    },
    'POST /api/admin/reports/7/resolve': () => {
      const report = state.reports.find((r) => r.id === 7)!;
      if (report.state !== 'open')
        return errors(422, { report: 'Report #7 was resolved already by alice@example.com' });
      Object.assign(report, { state: 'resolved', handledBy: 'alice@example.com', handledAt: '2026-11-28T10:00:00Z' });
      act(report.subdomain, 'resolve-report', 'Report #7 (Phishing or malware)');
      return json({ report });
    },
    'POST /api/admin/reports/8/dismiss': () =>
      errors(422, { report: 'Report #8 was dismissed already by bob@example.com' }),
    'DELETE /api/admin/blogs/quiet': () => {
      state.queue = state.queue.filter((b) => b.subdomain !== 'quiet');
      act('quiet', 'delete', '');
      return json({ done: "Deleted quiet and its owner's account; the subdomain is retired." });
    },
  });
}

const queueList = () => screen.findByRole('list', { name: 'Blogs waiting for review' });

describe('the Admin screen', () => {
  it('shows the queue with owner, age, posts, risk and why, and the top link hosts, escaped', async () => {
    adminServer([aBlog(1, 'spam', { name: HOSTILE }), aBlog(2, 'quiet', { riskScore: 3, linkHosts: [] })]);
    renderRoute('/d/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Menu' })).getByRole('link', { name: 'Admin' }),
    ).toHaveAttribute('aria-current', 'page');
    const spam = within(await queueList()).getByRole('article', { name: 'spam' });
    expect(within(spam).getByText('spam@example.com')).toBeInTheDocument();
    expect(within(spam).getByText('3 hours')).toBeInTheDocument();
    expect(within(spam).getByText('Risk 90')).toBeInTheDocument();
    expect(within(spam).getByText("41 links to 3 hosts in 2 posts; 'casino' ×3")).toBeInTheDocument();
    expect(
      within(spam).getByText(
        'casino.example ×30, pills.example ×8, a.example ×1, b.example ×1, c.example ×1, and 1 more',
      ),
    ).toBeInTheDocument();
    expect(within(spam).getByText(HOSTILE)).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
    expect(within(spam).getByRole('link', { name: 'spam' })).toHaveAttribute('href', 'http://spam.localhost:8080/');
    const quiet = within(await queueList()).getByRole('article', { name: 'quiet' });
    expect(within(quiet).getByText('no other sites')).toBeInTheDocument();
    expect(within(quiet).queryByText('Email')).toBeNull();
  });

  it('shows what a blog sends by email when it does', async () => {
    adminServer([aBlog(1, 'mailer', { mail: { subscribers: 2, sentToday: 5, bounced: 1, pausedAt: null } })]);
    renderRoute('/d/admin');
    const mailer = within(await queueList()).getByRole('article', { name: 'mailer' });
    expect(within(mailer).getByText('2 subscribers · 5 sent today · 1 bounced')).toBeInTheDocument();
  });

  it('approves a blog: it leaves the queue and the record of actions shows it', async () => {
    const api = adminServer([aBlog(1, 'spam')]);
    const { user } = renderRoute('/d/admin');
    const spam = within(await queueList()).getByRole('article', { name: 'spam' });
    await user.click(within(spam).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Approved spam: it is approved now.');
    expect(await screen.findByText('No blog is waiting for review.')).toBeInTheDocument();
    const record = await screen.findByRole('list', { name: 'Admin actions, newest first' });
    expect(record).toHaveTextContent('alice@example.com approved spam');
    expect(api.sent('POST', '/api/admin/blogs/spam/approve')[0]!.body).toEqual({ reason: '' });
  });

  it('shows the server refusing a suspension without a reason, then suspends with one', async () => {
    const api = adminServer([aBlog(1, 'spam')]);
    const { user } = renderRoute('/d/admin');
    const spam = within(await queueList()).getByRole('article', { name: 'spam' });
    await user.click(within(spam).getByRole('button', { name: 'Suspend' }));
    expect(await within(spam).findByRole('alert')).toHaveTextContent('Say why the blog is suspended');
    await user.type(within(spam).getByLabelText(/Reason/), 'Phishing pages');
    await user.click(within(spam).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Suspended spam: it is suspended now.');
    expect(api.sent('POST', '/api/admin/blogs/spam/suspend')[1]!.body).toEqual({ reason: 'Phishing pages' });
    expect(await screen.findByRole('list', { name: 'Admin actions, newest first' })).toHaveTextContent(
      'suspended spam — Phishing pages',
    );
  });

  it('deletes only once the admin confirms', async () => {
    const api = adminServer([aBlog(2, 'quiet')]);
    const { user } = renderRoute('/d/admin');
    const quiet = within(await queueList()).getByRole('article', { name: 'quiet' });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(quiet).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith(deleteQuestion('quiet'));
    expect(api.sent('DELETE', '/api/admin/blogs/quiet')).toHaveLength(0);
    await user.click(within(quiet).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent("Deleted quiet and its owner's account");
    expect(api.sent('DELETE', '/api/admin/blogs/quiet')).toHaveLength(1);
  });

  it('searches all blogs and orders the queue by risk when asked', async () => {
    const api = adminServer([aBlog(1, 'low', { riskScore: 5 }), aBlog(2, 'high', { riskScore: 80 })]);
    const { user } = renderRoute('/d/admin');
    const names = async () =>
      within(await queueList())
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label'));
    await waitFor(async () => expect(await names()).toEqual(['low', 'high']));
    await user.selectOptions(screen.getByLabelText('Order'), 'risk');
    await waitFor(async () => expect(await names()).toEqual(['high', 'low']));
    await user.type(screen.getByLabelText('Subdomain, name or owner email'), 'hig');
    await user.selectOptions(screen.getByLabelText('State'), 'new');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const found = await screen.findByRole('list', { name: 'Blogs found' });
    expect(
      within(found)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual(['high']);
    expect(api.requests.some((r) => r.path.startsWith('/api/admin/blogs?q=hig&state=new'))).toBe(true);
  });

  it('lists open reports with the blog state and the reader words as text, and resolves one', async () => {
    const api = adminServer(
      [],
      [
        aReport(7, {
          postUrl: 'http://spam.localhost:8080/cheap-pills',
          reason: 'phishing',
          reasonLabel: 'Phishing or malware',
          details: HOSTILE,
          contactEmail: 'reader@example.org',
        }),
        aReport(8, { subdomain: 'gone', blogState: null }),
      ],
    );
    const { user } = renderRoute('/d/admin');
    const open = await screen.findByRole('list', { name: 'Open reports' });
    const seven = within(open).getByRole('article', { name: 'Report #7' });
    expect(within(seven).getByRole('heading', { name: 'Phishing or malware' })).toBeInTheDocument();
    expect(within(seven).getByText('new')).toBeInTheDocument();
    expect(within(seven).getByRole('link', { name: 'spam' })).toHaveAttribute('href', 'http://spam.localhost:8080/');
    expect(within(seven).getByRole('link', { name: 'http://spam.localhost:8080/cheap-pills' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow',
    );
    expect(within(seven).getByText(HOSTILE)).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
    expect(within(seven).getByRole('link', { name: 'reader@example.org' })).toHaveAttribute(
      'href',
      'mailto:reader@example.org',
    );
    // A deleted blog's report names it without a link.
    const eight = within(open).getByRole('article', { name: 'Report #8' });
    expect(within(eight).getByText('deleted')).toBeInTheDocument();
    expect(within(eight).queryByRole('link', { name: 'gone' })).toBeNull();

    await user.click(within(seven).getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Resolved report #7 on spam.');
    await waitFor(() => expect(within(open).queryByRole('article', { name: 'Report #7' })).toBeNull());
    expect(await screen.findByRole('list', { name: 'Admin actions, newest first' })).toHaveTextContent(
      'alice@example.com resolved a report on spam — Report #7 (Phishing or malware)',
    );
    expect(api.sent('POST', '/api/admin/reports/7/resolve')).toHaveLength(1);

    // The resolved list shows who settled it; a report settled elsewhere meanwhile says so.
    await user.selectOptions(screen.getByLabelText('Show'), 'resolved');
    const resolved = await screen.findByRole('list', { name: 'Resolved reports' });
    expect(within(resolved).getByRole('article', { name: 'Report #7' })).toHaveTextContent('by alice@example.com');
    expect(within(resolved).queryByRole('button', { name: 'Resolve' })).toBeNull();
    await user.selectOptions(screen.getByLabelText('Show'), 'open');
    const again = await screen.findByRole('list', { name: 'Open reports' });
    await user.click(within(again).getByRole('button', { name: 'Dismiss' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent('Report #8 was dismissed already by bob');
  });

  it('says when no report is waiting', async () => {
    adminServer([]);
    renderRoute('/d/admin');
    expect(await screen.findByText('No report is waiting.')).toBeInTheDocument();
  });

  it('tells a user who is not an admin that the screen is not theirs, with no Admin entry and no admin call', async () => {
    const api = fakeApi({ ...signedIn() });
    renderRoute('/d/admin');
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_AN_ADMIN);
    expect(within(screen.getByRole('navigation', { name: 'Menu' })).queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(api.requests.filter((r) => r.path.startsWith('/api/admin'))).toHaveLength(0);
  });
});

describe('the Admin screen helpers', () => {
  it('offers the actions each state allows', () => {
    expect(actionsFor({ state: 'new', flaggedAt: null })).toEqual(['approve', 'silence', 'suspend']);
    expect(actionsFor({ state: 'approved', flaggedAt: null })).toEqual(['silence', 'suspend']);
    expect(actionsFor({ state: 'approved', flaggedAt: '2026-11-28T00:00:00Z' })).toEqual([
      'approve',
      'silence',
      'suspend',
    ]);
    expect(actionsFor({ state: 'silenced', flaggedAt: null })).toEqual(['approve', 'suspend']);
    expect(actionsFor({ state: 'suspended', flaggedAt: null })).toEqual(['unsuspend']);
  });

  it("tells a blog's email sending in one line", () => {
    expect(mailFigures({ subscribers: 1, sentToday: 0, bounced: 0, pausedAt: null })).toBe(
      '1 subscriber · 0 sent today',
    );
    expect(mailFigures({ subscribers: 1200, sentToday: 340, bounced: 3, pausedAt: '2026-11-28T10:00:00Z' })).toMatch(
      /^1,200 subscribers · 340 sent today · 3 bounced · paused for bounces since /,
    );
  });

  it('tells each recorded action in words', () => {
    expect(actionWords('approve')).toBe('approved');
    expect(actionWords('dismiss-report')).toBe('dismissed a report on');
    expect(actionWords('something-new')).toBe('something-new');
  });

  it('tells ages in their largest whole unit', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(ageOf('2026-11-28T11:59:00Z', now)).toBe('1 minute');
    expect(ageOf('2026-11-27T10:00:00Z', now)).toBe('26 hours');
    expect(ageOf('2026-11-18T12:00:00Z', now)).toBe('10 days');
    expect(ageOf('nonsense', now)).toBe('unknown');
  });
});
