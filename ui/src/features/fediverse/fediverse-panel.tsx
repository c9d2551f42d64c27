import { useState, type FormEvent } from 'react';
import { Button, Checkbox, ErrorLine, Pager, Panel, Spinner, TextInput } from '../../components';
import { copyFailedText, useCopy } from '../../lib/use-copy';
import { useLoad } from '../../lib/use-load';
import { usePageBack } from '../../lib/use-page-back';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import {
  approveFollower,
  blockDomain,
  fetchFediverse,
  fetchFollowers,
  removeFollower,
  setApproveFollowers,
  unblockDomain,
  type Fediverse,
  type Follower,
  type Refused,
} from './api';
import './fediverse.css';

/** What the owner confirms before an accepted follower goes. */
export const removeFollowerQuestion = (handle: string) =>
  `Remove ${handle} from your followers? Their server is told, and your new posts no longer reach them.`;

/**
 * The 'Fediverse' panel: the handle people on Mastodon and other fediverse servers follow the blog
 * by (with a Copy button), the followers a page at a time (pending ones to approve or reject,
 * accepted ones to remove), the 'Approve new followers' switch, the blog's blocked domains, the
 * servers Quire gave up delivering to, and what the limits on remote servers refused.
 */
export function FediversePanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchFediverse(blogId, signal), [blogId]);
  const fediverse = load.lastData;
  // Each change the server answered counts: the followers' page is loaded again after it.
  const [changes, setChanges] = useState(0);
  const show = (next: Fediverse) => {
    load.setData(() => next);
    setChanges((n) => n + 1);
  };

  return (
    <Panel title="Fediverse">
      <div className="q-settings__stack q-fediverse">
        {fediverse === undefined && !load.lastError && <Spinner label="Loading the fediverse settings" />}
        {fediverse === undefined && <ErrorLine message={failureText(load.lastError)} />}
        {fediverse && (
          <>
            <Handle handle={fediverse.handle} />
            <ApprovalSwitch blogId={blogId} fediverse={fediverse} onChange={show} />
            <Followers blogId={blogId} fediverse={fediverse} changes={changes} onChange={show} />
            <BlockedDomains blogId={blogId} domains={fediverse.blockedDomains} onChange={show} />
            <GivenUp fediverse={fediverse} />
            <RefusedByLimits refused={fediverse.refused} />
          </>
        )}
      </div>
    </Panel>
  );
}

/** The handle to share, with a Copy button. */
function Handle({ handle }: { handle: string }) {
  const { copied, failed: copyFailed, copy } = useCopy<'handle'>();
  return (
    <div className="q-settings__stack">
      <h3 className="q-fediverse__heading">Your fediverse handle</h3>
      <p className="q-settings__muted">
        People on Mastodon and other fediverse servers can search for this handle and follow your blog: each new post
        reaches them.
      </p>
      <div className="q-settings__row">
        <code className="q-fediverse__handle">{handle}</code>
        <Button
          variant="secondary"
          onClick={() => void copy(handle, 'handle')}
          aria-label={copied ? 'Copied the handle' : 'Copy the handle'}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <ErrorLine message={copyFailed ? copyFailedText('handle') : null} />
    </div>
  );
}

/** 'Approve new followers': saved as soon as it is switched. */
function ApprovalSwitch({
  blogId,
  fediverse,
  onChange,
}: {
  blogId: number;
  fediverse: Fediverse;
  onChange: (next: Fediverse) => void;
}) {
  const save = useSaveAction();
  const pending = fediverse.pendingCount > 0;
  return (
    <div className="q-settings__stack">
      <Checkbox
        label="Approve new followers"
        hint={
          fediverse.approveFollowers && pending
            ? 'New followers wait for you below. Switching this off does not accept those already waiting.'
            : 'New followers wait for your approval instead of following at once.'
        }
        checked={fediverse.approveFollowers}
        disabled={save.loading}
        onChange={(checked) => void save.run(async () => onChange(await setApproveFollowers(blogId, checked)))}
      />
      <ErrorLine message={failureText(save.failure)} />
    </div>
  );
}

/** What the count of followers waiting says, if any wait. */
export const waitingText = (count: number) =>
  count === 0 ? null : count === 1 ? '1 waiting for approval' : `${count} waiting for approval`;

/**
 * The follower count and one page of the list (oldest first, with a pager past one page); pending
 * followers get Approve and Reject. The page is loaded again after every change (`changes`); a page
 * left empty by one goes back a page.
 */
function Followers({
  blogId,
  fediverse,
  changes,
  onChange,
}: {
  blogId: number;
  fediverse: Fediverse;
  changes: number;
  onChange: (next: Fediverse) => void;
}) {
  const action = useSaveAction();
  const [busy, setBusy] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const list = useLoad((signal) => fetchFollowers(blogId, page, signal), [blogId, page, changes]);
  const shown = list.lastData;
  const count = fediverse.followerCount;
  const waiting = waitingText(fediverse.pendingCount);
  const pastTheEnd = usePageBack(page, list, (data) => data.followers.length === 0, setPage);

  const act = (follower: Follower, work: () => Promise<Fediverse>) => {
    setBusy(follower.id);
    void action.run(async () => onChange(await work())).finally(() => setBusy(null));
  };
  const approve = (follower: Follower) => act(follower, () => approveFollower(blogId, follower.id));
  const reject = (follower: Follower) => act(follower, () => removeFollower(blogId, follower.id));
  const remove = (follower: Follower) => {
    if (!window.confirm(removeFollowerQuestion(follower.handle))) return;
    act(follower, () => removeFollower(blogId, follower.id));
  };

  return (
    <div className="q-settings__stack">
      <h3 className="q-fediverse__heading">Followers</h3>
      <p>
        {count === 0 ? 'No followers yet.' : count === 1 ? '1 follower' : `${count} followers`}
        {waiting && ` · ${waiting}`}
      </p>
      {list.status === 'failed' && !pastTheEnd && <ErrorLine message={failureText(list.error)} />}
      {shown && shown.followers.length > 0 && (
        <ul className="q-fediverse__list" aria-label="Followers">
          {shown.followers.map((follower) => (
            <li key={follower.id} className="q-fediverse__item">
              <a
                href={follower.actorUrl}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="q-fediverse__who"
              >
                {follower.handle}
              </a>
              {follower.state === 'pending' ? (
                <>
                  <span className="q-fediverse__badge">Waiting for approval</span>
                  <span className="q-fediverse__actions">
                    <Button
                      variant="secondary"
                      onClick={() => approve(follower)}
                      loading={busy === follower.id}
                      disabled={busy !== null}
                      aria-label={`Approve ${follower.handle}`}
                    >
                      Approve
                    </Button>
                    <Button
                      variant="danger"
                      onClick={() => reject(follower)}
                      disabled={busy !== null}
                      aria-label={`Reject ${follower.handle}`}
                    >
                      Reject
                    </Button>
                  </span>
                </>
              ) : (
                <span className="q-fediverse__actions">
                  <Button
                    variant="danger"
                    onClick={() => remove(follower)}
                    loading={busy === follower.id}
                    disabled={busy !== null}
                    aria-label={`Remove ${follower.handle}`}
                  >
                    Remove
                  </Button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {shown && <Pager page={shown.paging.pageNumber || page} totalPages={shown.paging.totalPages} onGo={setPage} />}
      <ErrorLine message={failureText(action.failure)} />
    </div>
  );
}

/** The blog's blocked domains: an add form (the server's message under it) and a Remove button each. */
function BlockedDomains({
  blogId,
  domains,
  onChange,
}: {
  blogId: number;
  domains: string[];
  onChange: (next: Fediverse) => void;
}) {
  const [domain, setDomain] = useState('');
  const add = useSaveAction();
  const remove = useSaveAction();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void add.run(async () => {
      onChange(await blockDomain(blogId, domain.trim()));
      setDomain('');
    });
  };

  return (
    <div className="q-settings__stack">
      <h3 className="q-fediverse__heading">Blocked domains</h3>
      <p className="q-settings__muted">
        Nothing from a blocked domain or its subdomains reaches your blog, and everything it sent is removed: its
        followers, replies, likes and boosts.
      </p>
      {domains.length > 0 && (
        <ul className="q-fediverse__list" aria-label="Blocked domains">
          {domains.map((name) => (
            <li key={name} className="q-fediverse__item">
              <span className="q-fediverse__who">{name}</span>
              <span className="q-fediverse__actions">
                <Button
                  variant="secondary"
                  onClick={() => void remove.run(async () => onChange(await unblockDomain(blogId, name)))}
                  disabled={remove.loading}
                  aria-label={`Unblock ${name}`}
                >
                  Unblock
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine message={failureText(remove.failure)} />
      <form className="q-settings__row" onSubmit={submit} noValidate>
        <TextInput
          label="Domain to block"
          className="q-settings__grow"
          value={domain}
          onChange={(value) => {
            setDomain(value);
            if (add.failure) add.reset();
          }}
          placeholder="spam.example"
          error={failureText(add.failure, 'domain')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <Button type="submit" loading={add.loading}>
          Block
        </Button>
      </form>
    </div>
  );
}

/** The servers Quire stopped trying to deliver to, if any. */
function GivenUp({ fediverse }: { fediverse: Fediverse }) {
  if (fediverse.givenUp.length === 0) return null;
  return (
    <div className="q-settings__stack">
      <h3 className="q-fediverse__heading">Undelivered</h3>
      <ul className="q-fediverse__list" aria-label="Undelivered">
        {fediverse.givenUp.map((host) => (
          <li key={host.inboxHost} className="q-fediverse__item q-fediverse__given-up">
            <span>
              {host.count === 1 ? '1 delivery' : `${host.count} deliveries`} to {host.inboxHost} given up after two days
            </span>
            {host.lastError && <span className="q-settings__muted">Last error: {host.lastError}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What a kind of refusal is called, one and many. */
const REFUSED_NAMES: Record<string, [string, string]> = {
  reply: ['reply', 'replies'],
  pending_follower: ['follower waiting for approval', 'followers waiting for approval'],
  follower: ['follower', 'followers'],
  reaction: ['like or boost', 'likes and boosts'],
};

/** What the limits on remote servers refused, if anything: how many of each kind, and from where last. */
function RefusedByLimits({ refused }: { refused: Refused[] }) {
  if (refused.length === 0) return null;
  return (
    <div className="q-settings__stack">
      <h3 className="q-fediverse__heading">Refused by the limits</h3>
      <p className="q-settings__muted">
        Each fediverse server may send only so many held replies, followers, likes and boosts; approve, refuse or delete
        some to make room.
      </p>
      <ul className="q-fediverse__list" aria-label="Refused by the limits">
        {refused.map((r) => {
          const [one, many] = REFUSED_NAMES[r.kind] ?? [r.kind, r.kind];
          return (
            <li key={r.kind} className="q-fediverse__item q-fediverse__given-up">
              <span>
                {r.count === 1 ? `1 ${one}` : `${r.count} ${many}`} refused, the last from {r.lastHost}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
