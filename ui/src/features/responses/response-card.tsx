import { useState } from 'react';
import { Link } from 'react-router';
import { Button, ErrorLine, TextArea } from '../../components';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/error-message';
import { actOn, deleteResponse, replyTo, type Action, type Response, type ResponseState } from './api';

/** What the owner confirms before one response goes. */
export const DELETE_RESPONSE_QUESTION =
  'Delete this response? It is removed from Quire, and from your blog if it was shown.';

/** What the owner confirms before blocking a commenter's address. */
export const BLOCK_QUESTION =
  "Block the address this comment came from? It goes to Spam, and that address's later comments on this blog go to Spam too.";

/** Each kind's name on its card. */
export const KIND_LABELS: Record<Response['kind'], string> = {
  reply: 'Fediverse reply',
  comment: 'Comment',
  webmention: 'Webmention',
};

/** A date and time as the owner's browser shows them. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Only http(s) addresses become links (the server stores no other, but the card does not trust that). */
const linkable = (url: string | null | undefined): url is string => !!url && /^https?:\/\//i.test(url);

export interface ResponseCardProps {
  blogId: number;
  response: Response;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** It moved to `state` (approved, spam). */
  onMoved: (state: ResponseState) => void;
  /** The server answered a change that keeps it in its list (the owner's reply). */
  onChanged: (response: Response) => void;
  onGone: () => void;
}

/**
 * One response: its kind, who sent it (linked to their site or profile), on which post, when (linked
 * to the reply's or webmention's own page), a webmention's title, the text as plain text (never
 * markup), the owner's reply under a comment, and what the owner can do: Approve, Spam, Block (a
 * comment's address) and Delete.
 */
export function ResponseCard({ blogId, response, selected, onSelect, onMoved, onChanged, onGone }: ResponseCardProps) {
  const [busy, setBusy] = useState<Action | 'delete' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const kind = KIND_LABELS[response.kind];

  const run = <T,>(which: Action | 'delete', work: () => Promise<T>, then: (result: T) => void) => {
    setBusy(which);
    setFailure(null);
    work().then(
      (result) => {
        setBusy(null);
        then(result);
      },
      (error: unknown) => {
        setFailure(errorMessage(error));
        setBusy(null);
      },
    );
  };
  const act = (action: Action) => {
    if (action === 'block' && !window.confirm(BLOCK_QUESTION)) return;
    run(action, () => actOn(blogId, response, action), onMoved);
  };
  const remove = () => {
    if (!window.confirm(DELETE_RESPONSE_QUESTION)) return;
    run('delete', () => deleteResponse(blogId, response), onGone);
  };
  const when = <time dateTime={response.receivedAt}>{localDateTime(response.receivedAt)}</time>;

  return (
    <article className="q-card q-response" aria-label={`${kind} by ${response.authorName}`}>
      <div className="q-response__head">
        <input
          type="checkbox"
          className="q-response__select"
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
          aria-label={`Select the ${kind.toLowerCase()} by ${response.authorName}`}
        />
        <span className={`q-response__kind q-response__kind--${response.kind}`}>{kind}</span>
        <p className="q-response__meta">
          {linkable(response.authorUrl) ? (
            <a
              href={response.authorUrl}
              target="_blank"
              rel="noopener noreferrer nofollow ugc"
              className="q-response__author"
            >
              {response.authorName}
            </a>
          ) : (
            <span className="q-response__author">{response.authorName}</span>
          )}
          {response.authorHandle && <span className="q-response__handle"> {response.authorHandle}</span>} on{' '}
          <Link to={paths.editPost(response.postId)}>{response.postTitle}</Link> ·{' '}
          {linkable(response.sourceUrl) ? (
            <a href={response.sourceUrl} target="_blank" rel="noopener noreferrer nofollow ugc">
              {when}
            </a>
          ) : (
            when
          )}
        </p>
      </div>
      {response.title && <p className="q-response__title">{response.title}</p>}
      <p className="q-response__text">{response.text}</p>
      {response.kind === 'comment' && <OwnerReply blogId={blogId} response={response} onChanged={onChanged} />}
      <div className="q-response__actions">
        {response.state !== 'approved' && (
          <Button onClick={() => act('approve')} loading={busy === 'approve'} disabled={busy !== null}>
            Approve
          </Button>
        )}
        {response.state !== 'spam' && (
          <Button variant="secondary" onClick={() => act('spam')} loading={busy === 'spam'} disabled={busy !== null}>
            Spam
          </Button>
        )}
        {response.kind === 'comment' && (
          <Button variant="secondary" onClick={() => act('block')} loading={busy === 'block'} disabled={busy !== null}>
            Block address
          </Button>
        )}
        <Button variant="danger" onClick={remove} loading={busy === 'delete'} disabled={busy !== null}>
          Delete
        </Button>
      </div>
      <ErrorLine message={failure} />
    </article>
  );
}

/** The owner's reply under a comment: shown, then written or changed in place. */
function OwnerReply({
  blogId,
  response,
  onChanged,
}: {
  blogId: number;
  response: Response;
  onChanged: (response: Response) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = (text: string) => {
    setSaving(true);
    setFailure(null);
    replyTo(blogId, response, text).then(
      (changed) => {
        setSaving(false);
        setDraft(null);
        onChanged(changed);
      },
      (error: unknown) => {
        setSaving(false);
        setFailure(errorMessage(error));
      },
    );
  };

  if (draft === null) {
    return (
      <div className="q-response__reply">
        {response.ownerReply && (
          <>
            <p className="q-response__reply-label">Your reply</p>
            <p className="q-response__text">{response.ownerReply}</p>
          </>
        )}
        <Button variant="secondary" onClick={() => setDraft(response.ownerReply)}>
          {response.ownerReply ? 'Edit reply' : 'Reply'}
        </Button>
      </div>
    );
  }
  return (
    <div className="q-response__reply">
      <TextArea
        label="Your reply"
        hint="Markdown; shown under the comment, marked as yours."
        rows={4}
        value={draft}
        maxLength={5000}
        onChange={setDraft}
      />
      <div className="q-response__actions">
        <Button onClick={() => save(draft)} loading={saving} disabled={saving || draft.trim() === ''}>
          Save reply
        </Button>
        {response.ownerReply && (
          <Button variant="secondary" onClick={() => save('')} disabled={saving}>
            Remove reply
          </Button>
        )}
        <Button variant="secondary" onClick={() => setDraft(null)} disabled={saving}>
          Cancel
        </Button>
      </div>
      <ErrorLine message={failure} />
    </div>
  );
}
