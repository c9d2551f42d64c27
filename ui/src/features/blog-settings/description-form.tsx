// The blog's description, its listing on the instance's landing page (issue 33) and its answer
// to AI crawlers (issue 35).
import { useEffect, useState } from 'react';
import { Checkbox, SaveButton, TextArea } from '../../components';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { refreshBlogInBackground, type Blog } from '../blogs';
import { setAiCrawlers, setDescription, setListed } from './api';
import { useSavedValue } from './use-saved-value';

/** Longest description the server takes, in characters (`domain/blog/blog_description.rs`). */
export const MAX_DESCRIPTION = 300;

/** One paragraph under the blog's name: its home, its feeds and link previews show it. */
export function DescriptionForm({ blog }: { blog: Blog }) {
  const description = useSavedValue(
    blog.description,
    async (value) => (await setDescription(blog.id, value)).description,
  );
  const left = MAX_DESCRIPTION - [...description.value].length;
  return (
    <form className="q-settings__row" onSubmit={description.submit} noValidate>
      <TextArea
        label="Description"
        className="q-settings__grow"
        rows={3}
        value={description.value}
        onChange={description.change}
        hint={`Shown under your blog's name, in its feeds and in link previews. ${left} characters left.`}
        error={failureText(description.save.failure, 'description')}
      />
      <SaveButton type="submit" action={description.save} />
    </form>
  );
}

/** The switch that lists the blog's newest posts on the instance's landing page; saved when ticked. */
export function ListedSwitch({ blog }: { blog: Blog }) {
  return (
    <SavedSwitch
      value={blog.listed}
      save={async (next) => (await setListed(blog.id, next)).listed}
      label="List this blog on the front page of this instance"
      hint="Its newest posts are shown on the instance's landing page once it is approved."
      field="listed"
    />
  );
}

/** The switch that asks AI crawlers not to use the blog (issue 35); saved when ticked. */
export function AiCrawlersSwitch({ blog }: { blog: Blog }) {
  return (
    <SavedSwitch
      value={blog.aiCrawlers === 'disallow'}
      save={async (next) => (await setAiCrawlers(blog.id, next ? 'disallow' : 'allow')).aiCrawlers === 'disallow'}
      label="Ask AI crawlers not to use this blog"
      hint="Its robots.txt asks the crawlers AI companies name (GPTBot, ClaudeBot, Google-Extended and others) to stay away, and its pages say noai. Search engines still list it. Crawlers that ignore robots.txt are not stopped."
      field="aiCrawlers"
    />
  );
}

interface SavedSwitchProps {
  /** What the blog says now. */
  value: boolean;
  /** Saves `next` and answers what the server stored. */
  save: (next: boolean) => Promise<boolean>;
  label: string;
  hint: string;
  /** The field of the server's error message. */
  field: string;
}

/** A checkbox saved as soon as it is ticked or unticked; back to what it was when the save fails. */
function SavedSwitch({ value, save: store, label, hint, field }: SavedSwitchProps) {
  const [checked, setShown] = useState(value);
  const save = useSaveAction();
  useEffect(() => setShown(value), [value]);
  const change = (next: boolean) => {
    setShown(next);
    void save
      .run(async () => {
        setShown(await store(next));
        refreshBlogInBackground();
      })
      .then((ok) => {
        if (!ok) setShown(!next);
      });
  };
  return (
    <Checkbox
      label={label}
      checked={checked}
      onChange={change}
      disabled={save.loading}
      hint={save.saved ? 'Saved' : hint}
      error={failureText(save.failure, field)}
    />
  );
}
