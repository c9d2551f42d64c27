// The blog's description and its listing on the instance's landing page (issue 33).
import { useEffect, useState } from 'react';
import { Checkbox, SaveButton, TextArea } from '../../components';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { refreshBlogInBackground, type Blog } from '../blogs';
import { setDescription, setListed } from './api';
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
  const [listed, setShown] = useState(blog.listed);
  const save = useSaveAction();
  useEffect(() => setShown(blog.listed), [blog.listed]);
  const change = (next: boolean) => {
    setShown(next);
    void save
      .run(async () => {
        setShown((await setListed(blog.id, next)).listed);
        refreshBlogInBackground();
      })
      .then((ok) => {
        if (!ok) setShown(!next);
      });
  };
  return (
    <Checkbox
      label="List this blog on the front page of this instance"
      checked={listed}
      onChange={change}
      disabled={save.loading}
      hint={save.saved ? 'Saved' : "Its newest posts are shown on the instance's landing page once it is approved."}
      error={failureText(save.failure, 'listed')}
    />
  );
}
