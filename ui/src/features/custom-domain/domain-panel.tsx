import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, ErrorLine, Panel, SaveButton, Spinner, TextInput } from '../../components';
import { cx } from '../../lib/cx';
import { localTime } from '../../lib/local-time';
import { copyFailedText, useCopy } from '../../lib/use-copy';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { refreshBlogInBackground } from '../blogs';
import { checkDomain, fetchDomain, removeDomain, setDomain, type CustomDomain, type DomainCertificate } from './api';
import './custom-domain.css';

/** How often the domain is loaded again while Quire waits for its DNS records or its certificate. */
export const DOMAIN_POLL_MS = 10_000;

/** What the owner confirms before the domain goes. */
export const REMOVE_DOMAIN_QUESTION =
  'Remove this domain? Your blog goes back to its subdomain, and readers who use the domain no longer reach it.';

/**
 * The 'Custom domain' panel: a form for the blog's own domain name, then the DNS records to create,
 * where Quire stands in checking them and getting a certificate, 'Check now' and 'Remove domain'.
 * While Quire waits (for the records, or for a certificate) the domain is loaded again every
 * DOMAIN_POLL_MS.
 */
export function DomainPanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchDomain(blogId, signal), [blogId]);
  const domain = load.lastData;
  const { reload, setData } = load;
  const waiting = domain ? domain.state !== 'verified' || domain.certificate.state === 'pending' : false;

  useEffect(() => {
    if (!waiting || load.status === 'loading') return undefined;
    const timer = setTimeout(() => void reload(), DOMAIN_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, load.status, domain, reload]);

  // The blog's address (its url, the posts' permalinks) moves to the domain once it is verified,
  // and back when it no longer is: the blog is refreshed, so the owner area's 'Open blog' link follows.
  const verified = domain?.state === 'verified';
  const wasVerified = useRef<boolean | undefined>(undefined);
  useEffect(() => {
    if (domain === undefined) return;
    if (wasVerified.current !== undefined && wasVerified.current !== verified) refreshBlogInBackground();
    wasVerified.current = verified;
  }, [domain, verified]);

  /** Shows what a call answered; a poll sent before it, still on its way, is dropped by reloading. */
  const show = (next: CustomDomain | null) => {
    setData(() => next);
    void reload();
  };

  return (
    <Panel title="Custom domain">
      <div className="q-settings__stack q-domain">
        {domain === undefined && !load.lastError && <Spinner label="Loading the custom domain" />}
        {domain === undefined && <ErrorLine message={failureText(load.lastError)} />}
        {domain === null && <DomainForm blogId={blogId} onSet={show} />}
        {domain && <DomainDetails blogId={blogId} domain={domain} onChange={show} />}
      </div>
    </Panel>
  );
}

/** The name to enter, saved with its button; the server's message for a refused name shows under it. */
function DomainForm({ blogId, onSet }: { blogId: number; onSet: (domain: CustomDomain) => void }) {
  const [name, setName] = useState('');
  const save = useSaveAction();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(async () => onSet(await setDomain(blogId, name.trim())));
  };

  return (
    <>
      <p className="q-settings__muted">
        Readers can find your blog at a domain name of your own, such as blog.example.org, instead of its subdomain.
      </p>
      <form className="q-settings__row" onSubmit={submit} noValidate>
        <TextInput
          label="Domain name"
          className="q-settings__grow"
          value={name}
          onChange={(value) => {
            setName(value);
            if (save.failure) save.reset();
          }}
          placeholder="blog.example.org"
          error={failureText(save.failure, 'name')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <SaveButton type="submit" action={save} />
      </form>
    </>
  );
}

/** A set domain: its name, state and certificate, the records to create, and what the owner can do. */
function DomainDetails({
  blogId,
  domain,
  onChange,
}: {
  blogId: number;
  domain: CustomDomain;
  onChange: (domain: CustomDomain | null) => void;
}) {
  const check = useSaveAction();
  const remove = useSaveAction();

  const checkNow = () => void check.run(async () => onChange(await checkDomain(blogId)));
  const removeNow = () => {
    if (!window.confirm(REMOVE_DOMAIN_QUESTION)) return;
    void remove.run(async () => {
      await removeDomain(blogId);
      onChange(null);
    });
  };

  return (
    <>
      <div className="q-settings__item-text">
        <strong className="q-domain__name">{domain.displayName}</strong>
        {domain.displayName !== domain.name && <span className="q-settings__muted">In DNS: {domain.name}</span>}
      </div>
      <div
        className="q-settings__stack q-domain__status"
        role="status"
        aria-label="Domain status"
        aria-live="polite"
        aria-atomic="true"
      >
        <DomainStateLine domain={domain} />
        <CertificateLine certificate={domain.certificate} />
      </div>
      <CheckTimes domain={domain} />
      <DomainRecords domain={domain} />
      <div className="q-domain__actions">
        <Button variant="secondary" onClick={checkNow} loading={check.loading} disabled={remove.loading}>
          Check now
        </Button>
        <Button variant="danger" onClick={removeNow} loading={remove.loading} disabled={check.loading}>
          Remove domain
        </Button>
      </div>
      <ErrorLine message={failureText(check.failure) ?? failureText(remove.failure)} />
    </>
  );
}

/** The state's words, as a badge, with the reason of an error (or a hint while waiting). */
function DomainStateLine({ domain }: { domain: CustomDomain }) {
  const words = { waiting_for_dns: 'Waiting for DNS', verified: 'Verified', error: 'Error' }[domain.state];
  return (
    <p className="q-domain__state">
      <span className={cx('q-domain__badge', `q-domain__badge--${domain.state}`)}>{words}</span>
      {domain.error && (
        <span className={domain.state === 'error' ? 'q-settings__error' : 'q-settings__muted'}>{domain.error}</span>
      )}
    </p>
  );
}

/** Where the certificate stands when Quire gets one itself; nothing when a proxy serves HTTPS. */
function CertificateLine({ certificate }: { certificate: DomainCertificate }) {
  switch (certificate.state) {
    case 'not_managed':
      return null;
    case 'pending':
      return <p className="q-settings__muted">Getting a certificate…</p>;
    // The server's type allows a null time (a Unix time out of range, which no certificate has);
    // it is shown as it always was.
    case 'issued':
      return <p>Certificate issued, valid until {localDate(certificate.notAfter as string)}</p>;
    case 'error':
      return (
        <p className="q-settings__error">
          Certificate error: {certificate.error}, next try {localTime(certificate.retryAt as string)}
        </p>
      );
  }
}

/** When the records were checked last and when they are checked next. */
function CheckTimes({ domain }: { domain: CustomDomain }) {
  if (!domain.checkedAt && !domain.nextCheckAt) return null;
  return (
    <p className="q-settings__muted">
      {domain.checkedAt && <span>Last checked {localTime(domain.checkedAt)}.</span>}{' '}
      {domain.nextCheckAt && <span>Next check {localTime(domain.nextCheckAt)}.</span>}
    </p>
  );
}

/** The records to create at the DNS provider, each value with a Copy button. */
function DomainRecords({ domain }: { domain: CustomDomain }) {
  const { copied, failed: copyFailed, copy } = useCopy<number>();
  const appHost = window.location.hostname;

  return (
    <div className="q-settings__stack q-domain__records">
      <div className="q-domain__scroll">
        <table className="q-domain__table">
          <caption className="q-domain__caption">Create these records at your DNS provider</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">
                <span className="q-visually-hidden">Copy</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {domain.records.map((record, index) => (
              <tr key={`${record.type} ${record.name}`}>
                <td>{record.type}</td>
                <td className="q-domain__code">{record.name}</td>
                <td className="q-domain__code">{record.value}</td>
                <td>
                  <Button
                    variant="secondary"
                    onClick={() => void copy(record.value, index)}
                    aria-label={`${copied === index ? 'Copied' : 'Copy'} the ${record.type} record's value`}
                  >
                    {copied === index ? 'Copied' : 'Copy'}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorLine message={copyFailed ? copyFailedText('value') : null} />
      {domain.state === 'verified' && (
        <p className="q-settings__muted">Keep these records: Quire checks the TXT record every day.</p>
      )}
      <p className="q-settings__muted">
        A name at the root of a domain, such as example.org, can&apos;t have a CNAME record: give it A and AAAA records
        with the same addresses as {appHost} instead.
      </p>
    </div>
  );
}

/** A date as the owner's browser shows dates. */
function localDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}
