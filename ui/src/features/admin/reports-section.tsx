import { useState } from 'react';
import { Button, Select } from '../../components';
import { cx } from '../../lib/cx';
import { useLoad } from '../../lib/use-load';
import { fetchReports, settleReport, type Report, type ReportState, type Settlement } from './api';
import { CardFailure, CardList, blogUrl, localDateTime, useCardAction } from './parts';

const LISTS = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'dismissed', label: 'Dismissed' },
] as const;

const EMPTY: Record<ReportState, string> = {
  open: 'No report is waiting.',
  resolved: 'No report has been resolved yet.',
  dismissed: 'No report has been dismissed yet.',
};

const SETTLED: Record<Settlement, string> = { resolve: 'Resolved', dismiss: 'Dismissed' };

/**
 * The abuse reports readers sent from the "Report" link of a blog's pages, newest first: open
 * ones to resolve (the admin acted, e.g. suspended the blog from the lists above) or dismiss
 * (nothing to do), and the settled ones, each with who settled it.
 */
export function ReportsSection({ version, onChanged }: { version: number; onChanged: (line: string) => void }) {
  const [state, setState] = useState<ReportState>('open');
  const [page, setPage] = useState(1);
  const list = useLoad((signal) => fetchReports(state, page, signal), [state, page, version]);
  return (
    <section className="q-admin__section" aria-labelledby="q-admin-reports">
      <div className="q-admin__section-head">
        <h2 id="q-admin-reports">Reports</h2>
        <Select
          label="Show"
          options={LISTS}
          value={state}
          onChange={(value) => {
            setState(LISTS.find((l) => l.value === value)?.value ?? 'open');
            setPage(1);
          }}
        />
      </div>
      <CardList
        list={list}
        items={(data) => data.reports}
        label={`${LISTS.find((l) => l.value === state)?.label} reports`}
        empty={EMPTY[state]}
        loading="Loading reports"
        page={page}
        onPage={setPage}
        card={(report: Report) => <ReportCard report={report} onChanged={onChanged} />}
      />
    </section>
  );
}

/** One report: what and why, the reader's words as text, the blog's state now, and what to do. */
function ReportCard({ report, onChanged }: { report: Report; onChanged: (line: string) => void }) {
  const { busy, failure, run } = useCardAction<Settlement>(onChanged);
  const settle = (how: Settlement) =>
    run(how, async () => {
      await settleReport(report.id, how);
      return `${SETTLED[how]} report #${report.id} on ${report.subdomain}.`;
    });
  return (
    <article className="q-card q-admin-report" aria-label={`Report #${report.id}`}>
      <header className="q-admin-blog__head">
        <h3 className="q-admin-blog__name">{report.reasonLabel}</h3>
        <span className="q-admin-report__target">
          {report.postUrl ? 'a post of ' : 'the blog '}
          {report.blogState ? (
            <a href={blogUrl(report.subdomain)} target="_blank" rel="noopener noreferrer nofollow">
              {report.subdomain}
            </a>
          ) : (
            report.subdomain
          )}
        </span>
        <span
          className={cx('q-admin-blog__state', `q-admin-blog__state--${report.blogState ?? 'suspended'}`)}
          title="The blog's state now"
        >
          {report.blogState ?? 'deleted'}
        </span>
      </header>
      <dl className="q-admin-blog__facts">
        {report.postUrl && (
          <div className="q-admin-blog__wide">
            <dt>Post</dt>
            <dd>
              {report.blogState ? (
                <a href={report.postUrl} target="_blank" rel="noopener noreferrer nofollow">
                  {report.postUrl}
                </a>
              ) : (
                report.postUrl
              )}
            </dd>
          </div>
        )}
        <div className="q-admin-blog__wide">
          <dt>Details</dt>
          <dd className="q-admin-report__details">{report.details || 'None given.'}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>
            <time dateTime={report.createdAt}>{localDateTime(report.createdAt)}</time>
          </dd>
        </div>
        <div className="q-admin-blog__owner">
          <dt>Reader's email</dt>
          <dd>
            {report.contactEmail ? <a href={`mailto:${report.contactEmail}`}>{report.contactEmail}</a> : 'Not given'}
          </dd>
        </div>
        {report.handledAt && (
          <div className="q-admin-blog__wide">
            <dt>{report.state === 'resolved' ? 'Resolved' : 'Dismissed'}</dt>
            <dd>
              by {report.handledBy} on <time dateTime={report.handledAt}>{localDateTime(report.handledAt)}</time>
            </dd>
          </div>
        )}
      </dl>
      {report.state === 'open' && (
        <div className="q-admin-blog__buttons">
          <Button onClick={() => settle('resolve')} loading={busy === 'resolve'} disabled={busy !== null}>
            Resolve
          </Button>
          <Button
            variant="secondary"
            onClick={() => settle('dismiss')}
            loading={busy === 'dismiss'}
            disabled={busy !== null}
          >
            Dismiss
          </Button>
        </div>
      )}
      <CardFailure failure={failure} />
    </article>
  );
}
