import { useState, type FormEvent } from 'react';
import { Button, Pager, Select, Spinner, TextInput } from '../../components';
import { cx } from '../../lib/cx';
import { useLoad, type Load } from '../../lib/use-load';
import {
  deleteBlog,
  fetchActions,
  fetchQueue,
  moderateBlog,
  searchBlogs,
  type AdminBlog,
  type BlogsPage,
  type Moderation,
  type QueueOrder,
} from './api';
import { CardFailure, CardList, LoadFailed, blogUrl, localDateTime, useCardAction } from './parts';
import { ReportsSection } from './reports-section';
import './admin.css';

/** How many of a blog's link hosts a card shows. */
export const HOSTS_SHOWN = 5;

const ORDERS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'risk', label: 'Highest risk first' },
] as const;

const STATES = [
  { value: '', label: 'Any state' },
  { value: 'new', label: 'New' },
  { value: 'approved', label: 'Approved' },
  { value: 'silenced', label: 'Silenced' },
  { value: 'suspended', label: 'Suspended' },
] as const;

/** The question an admin confirms before a blog is deleted. */
export function deleteQuestion(subdomain: string): string {
  return `Delete ${subdomain}? The blog, its posts and its owner's account are removed for good, its followers are told, and the subdomain is never handed out again.`;
}

/** How long ago `iso` was, in its largest whole unit: "5 minutes", "3 hours", "12 days". */
export function ageOf(iso: string, now: number = Date.now()): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return 'unknown';
  const minutes = Math.max(0, Math.floor((now - at) / 60_000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return unit(minutes, 'minute');
  if (minutes < 48 * 60) return unit(Math.floor(minutes / 60), 'hour');
  return unit(Math.floor(minutes / (24 * 60)), 'day');
}

/**
 * The Admin screen (`/d/admin`, the instance's admins only): the review queue, the search over all
 * blogs, per-blog actions with a reason, the abuse reports readers sent, and the record of admin
 * actions. After any action every
 * list is loaded again, so a blog approved from the search leaves the queue at once.
 */
export function AdminScreen() {
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState('');
  const changed = (line: string) => {
    setNotice(line);
    setVersion((v) => v + 1);
  };
  return (
    <div className="q-admin">
      <p className="q-admin__intro">
        Blogs wait in the review queue while they are new, or when an approved blog in its first 30 days starts linking
        to many new sites. The risk score only orders the queue; nothing happens to a blog until you act.
      </p>
      <p className="q-admin__notice" role="status">
        {notice}
      </p>
      <QueueSection version={version} onChanged={changed} />
      <SearchSection version={version} onChanged={changed} />
      <ReportsSection version={version} onChanged={changed} />
      <ActionsSection version={version} />
    </div>
  );
}

function QueueSection({ version, onChanged }: { version: number; onChanged: (line: string) => void }) {
  const [order, setOrder] = useState<QueueOrder>('newest');
  const [page, setPage] = useState(1);
  const list = useLoad((signal) => fetchQueue(order, page, signal), [order, page, version]);
  return (
    <section className="q-admin__section" aria-labelledby="q-admin-queue">
      <div className="q-admin__section-head">
        <h2 id="q-admin-queue">Review queue</h2>
        <Select
          label="Order"
          options={ORDERS}
          value={order}
          onChange={(value) => {
            setOrder(value === 'risk' ? 'risk' : 'newest');
            setPage(1);
          }}
        />
      </div>
      <BlogList
        list={list}
        label="Blogs waiting for review"
        empty="No blog is waiting for review."
        page={page}
        onPage={setPage}
        onChanged={onChanged}
      />
    </section>
  );
}

function SearchSection({ version, onChanged }: { version: number; onChanged: (line: string) => void }) {
  const [text, setText] = useState('');
  const [state, setState] = useState('');
  const [asked, setAsked] = useState<{ text: string; state: string } | null>(null);
  const [page, setPage] = useState(1);
  const list = useLoad(asked ? (signal) => searchBlogs(asked.text, asked.state, page, signal) : null, [
    asked,
    page,
    version,
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked({ text: text.trim(), state });
    setPage(1);
  };
  return (
    <section className="q-admin__section" aria-labelledby="q-admin-search">
      <h2 id="q-admin-search">All blogs</h2>
      <form className="q-admin__search" role="search" onSubmit={submit}>
        <TextInput
          label="Subdomain, name or owner email"
          type="search"
          value={text}
          onChange={setText}
          maxLength={200}
        />
        <Select label="State" options={STATES} value={state} onChange={setState} />
        <Button type="submit">Search</Button>
      </form>
      {asked && (
        <BlogList
          list={list}
          label="Blogs found"
          empty="No blog matches."
          page={page}
          onPage={setPage}
          onChanged={onChanged}
        />
      )}
    </section>
  );
}

function BlogList({
  list,
  label,
  empty,
  page,
  onPage,
  onChanged,
}: {
  list: Load<BlogsPage>;
  label: string;
  empty: string;
  page: number;
  onPage: (page: number) => void;
  onChanged: (line: string) => void;
}) {
  return (
    <CardList
      list={list}
      items={(data) => data.blogs}
      label={label}
      empty={empty}
      loading="Loading blogs"
      page={page}
      onPage={onPage}
      card={(blog: AdminBlog) => <BlogCard blog={blog} onChanged={onChanged} />}
    />
  );
}

const LABEL: Record<Moderation, string> = {
  approve: 'Approve',
  silence: 'Silence',
  suspend: 'Suspend',
  unsuspend: 'Unsuspend',
};

const DONE: Record<Moderation, string> = {
  approve: 'Approved',
  silence: 'Silenced',
  suspend: 'Suspended',
  unsuspend: 'Unsuspended',
};

/** A blog's email sending in one line: "120 subscribers · 340 sent today · 3 bounced · paused". */
export function mailFigures(mail: AdminBlog['mail']): string {
  const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
  const parts = [count(mail.subscribers, 'subscriber', 'subscribers'), `${mail.sentToday.toLocaleString()} sent today`];
  if (mail.bounced > 0) parts.push(`${mail.bounced.toLocaleString()} bounced`);
  if (mail.pausedAt) parts.push(`paused for bounces since ${localDateTime(mail.pausedAt)}`);
  return parts.join(' · ');
}

/** The actions a blog's state allows, in the order the buttons show. */
export function actionsFor(blog: Pick<AdminBlog, 'state' | 'flaggedAt'>): Moderation[] {
  switch (blog.state) {
    case 'suspended':
      return ['unsuspend'];
    case 'approved':
      return blog.flaggedAt ? ['approve', 'silence', 'suspend'] : ['silence', 'suspend'];
    case 'silenced':
      return ['approve', 'suspend'];
    default:
      return ['approve', 'silence', 'suspend'];
  }
}

/** One blog: who and what it is, why it scores as it does, and what an admin can do. */
function BlogCard({ blog, onChanged }: { blog: AdminBlog; onChanged: (line: string) => void }) {
  const [reason, setReason] = useState('');
  const { busy, failure, run } = useCardAction<Moderation | 'delete'>((line) => {
    setReason('');
    onChanged(line);
  });
  const moderate = (action: Moderation) =>
    run(action, async () => {
      const after = await moderateBlog(blog.subdomain, action, reason);
      return `${DONE[action]} ${after.subdomain}: it is ${after.state} now.`;
    });
  const remove = () => {
    if (!window.confirm(deleteQuestion(blog.subdomain))) return;
    run('delete', () => deleteBlog(blog.subdomain));
  };
  const reasonId = `q-admin-reason-${blog.id}`;

  return (
    <article className="q-card" aria-label={blog.subdomain}>
      <header className="q-admin-blog__head">
        <h3 className="q-admin-blog__name">
          <a href={blogUrl(blog.subdomain)} target="_blank" rel="noopener noreferrer nofollow">
            {blog.subdomain}
          </a>
        </h3>
        <span className={cx('q-admin-blog__state', `q-admin-blog__state--${blog.state}`)}>{blog.state}</span>
        {blog.flaggedAt && <span className="q-admin-blog__state q-admin-blog__state--flagged">flagged</span>}
        <span className="q-admin-blog__risk" title="Risk score (0 to 100)">
          Risk {blog.riskScore}
        </span>
      </header>
      <p className="q-admin-blog__title">{blog.name}</p>
      <dl className="q-admin-blog__facts">
        <div className="q-admin-blog__owner">
          <dt>Owner</dt>
          <dd>{blog.ownerEmail}</dd>
        </div>
        <div>
          <dt>Age</dt>
          <dd>
            <time dateTime={blog.createdAt} title={localDateTime(blog.createdAt)}>
              {ageOf(blog.createdAt)}
            </time>
          </dd>
        </div>
        <div>
          <dt>Posts</dt>
          <dd>{blog.postCount}</dd>
        </div>
        <div className="q-admin-blog__wide">
          <dt>Why this score</dt>
          <dd>{blog.riskExplanation}</dd>
        </div>
        <div className="q-admin-blog__wide">
          <dt>Links to</dt>
          <dd>
            {blog.linkHosts.length === 0
              ? 'no other sites'
              : blog.linkHosts
                  .slice(0, HOSTS_SHOWN)
                  .map((h) => `${h.host} ×${h.links}`)
                  .join(', ') +
                (blog.linkHosts.length > HOSTS_SHOWN ? `, and ${blog.linkHosts.length - HOSTS_SHOWN} more` : '')}
          </dd>
        </div>
        {(blog.mail.subscribers > 0 || blog.mail.sentToday > 0 || blog.mail.pausedAt) && (
          <div className="q-admin-blog__wide">
            <dt>Email</dt>
            <dd>{mailFigures(blog.mail)}</dd>
          </div>
        )}
        {blog.stateReason && (
          <div className="q-admin-blog__wide">
            <dt>Reason given</dt>
            <dd>{blog.stateReason}</dd>
          </div>
        )}
      </dl>
      <div className="q-admin-blog__act">
        <TextInput
          id={reasonId}
          label="Reason (shown to the owner; needed to suspend)"
          value={reason}
          onChange={setReason}
          maxLength={1000}
        />
        <div className="q-admin-blog__buttons">
          {actionsFor(blog).map((action) => (
            <Button
              key={action}
              variant={action === 'suspend' ? 'danger' : action === 'approve' ? 'primary' : 'secondary'}
              onClick={() => moderate(action)}
              loading={busy === action}
              disabled={busy !== null}
            >
              {LABEL[action]}
            </Button>
          ))}
          <Button variant="danger" onClick={remove} loading={busy === 'delete'} disabled={busy !== null}>
            Delete
          </Button>
        </div>
      </div>
      <CardFailure failure={failure} />
    </article>
  );
}

const ACTION_WORDS: Record<string, string> = {
  approve: 'approved',
  silence: 'silenced',
  suspend: 'suspended',
  unsuspend: 'unsuspended',
  delete: 'deleted',
  'resolve-report': 'resolved a report on',
  'dismiss-report': 'dismissed a report on',
};

/** What the record of actions says an admin did ("approved", "resolved a report on"). */
export function actionWords(action: string): string {
  return ACTION_WORDS[action] ?? action;
}

function ActionsSection({ version }: { version: number }) {
  const [page, setPage] = useState(1);
  const list = useLoad((signal) => fetchActions(page, signal), [page, version]);
  const data = list.lastData;
  return (
    <section className="q-admin__section" aria-labelledby="q-admin-actions">
      <h2 id="q-admin-actions">Admin actions</h2>
      {data === undefined && list.status !== 'failed' && <Spinner label="Loading admin actions" />}
      {list.status === 'failed' && <LoadFailed error={list.error} onRetry={() => void list.reload()} />}
      {data && data.actions.length === 0 && <p className="q-admin__empty">No admin has acted yet.</p>}
      {data && data.actions.length > 0 && (
        <>
          <ol className="q-admin__actions" aria-label="Admin actions, newest first">
            {data.actions.map((action) => (
              <li key={action.id}>
                <time dateTime={action.at}>{localDateTime(action.at)}</time> <strong>{action.admin}</strong>{' '}
                {actionWords(action.action)} <strong>{action.subdomain}</strong>
                {action.reason && <span className="q-admin__action-reason"> — {action.reason}</span>}
              </li>
            ))}
          </ol>
          <Pager page={data.paging.pageNumber || page} totalPages={data.paging.totalPages} onGo={setPage} />
        </>
      )}
    </section>
  );
}
