import { useState, type FormEvent } from 'react';
import { ErrorLine, Panel, SaveButton, Select, Spinner, TextArea } from '../../components';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { fetchCommentSettings, saveCommentSettings, type CommentSettings } from './api';

/** The choices of who may comment, as the owner reads them. */
export const MODE_OPTIONS = [
  { value: 'off', label: 'No comments' },
  { value: 'held', label: 'Anyone; each comment waits for my approval' },
  { value: 'trusted', label: 'Anyone; held, but commenters I approved before show at once' },
] as const;

/** The blocked words as the text area shows them: one a line. */
const asLines = (words: string[]) => words.join('\n');
/** The text area's lines as words (the server trims, lowercases and drops repeats). */
const asWords = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/**
 * The 'Comments' panel: who may comment under the blog's posts (nobody, the default; anyone, each
 * comment held for approval; or held except for commenters approved before) and the blocked words
 * that send a comment to Spam. Comments wait in Responses.
 */
export function CommentsPanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchCommentSettings(blogId, signal), [blogId]);
  return (
    <Panel title="Comments">
      {load.lastData === undefined && !load.lastError && <Spinner label="Loading the comment settings" />}
      {load.lastData === undefined && <ErrorLine message={failureText(load.lastError)} />}
      {load.lastData && <CommentsForm blogId={blogId} settings={load.lastData} />}
    </Panel>
  );
}

function CommentsForm({ blogId, settings }: { blogId: number; settings: CommentSettings }) {
  const [mode, setMode] = useState<CommentSettings['mode']>(settings.mode);
  const [words, setWords] = useState(asLines(settings.blockedWords));
  const save = useSaveAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(async () => {
      const stored = await saveCommentSettings(blogId, { mode, blockedWords: asWords(words) });
      setMode(stored.mode);
      setWords(asLines(stored.blockedWords));
    });
  };
  return (
    <form className="q-settings__stack" onSubmit={submit}>
      <p className="q-settings__muted">
        Readers without a fediverse account can comment under your posts, without JavaScript and without an email
        address. Comments wait in Responses until you approve them; a post&apos;s comments can be closed in its editor.
      </p>
      <Select
        label="Who may comment"
        options={MODE_OPTIONS}
        value={mode}
        onChange={(value) => {
          save.reset();
          setMode(value as CommentSettings['mode']);
        }}
      />
      <TextArea
        label="Blocked words"
        hint="One a line. A comment holding one, in its name, website or text, goes to Spam."
        rows={4}
        value={words}
        onChange={(value) => {
          save.reset();
          setWords(value);
        }}
      />
      <div>
        <SaveButton type="submit" action={save} />
      </div>
      <ErrorLine message={failureText(save.failure)} />
    </form>
  );
}
