// A value of the Blog panel that is saved with its own button, and the background refresh of the
// owner area after a save.
import { useState, type FormEvent } from 'react';
import type { Blog } from '../blogs';
import { useSaveAction } from './use-save-action';

/** The owner area refreshes in the background; a failure there changes nothing on this screen. */
export function refresh(reloadBlog: () => Promise<Blog>): void {
  reloadBlog().catch((error: unknown) => console.warn('quire: reloading the blog failed', error));
}

/**
 * One value of the Blog panel saved with its own button: the value shown, `change` for its input
 * (which also forgets the last failure, so the message goes once the owner edits), and `submit`,
 * which sends it with `send` and shows what the server answered (`send` resolves with it).
 */
export function useSavedValue(
  initial: string,
  send: (value: string) => Promise<string>,
  reloadBlog: () => Promise<Blog>,
) {
  const [value, setValue] = useState(initial);
  const save = useSaveAction();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(async () => {
      setValue(await send(value));
      refresh(reloadBlog);
    });
  };

  const change = (next: string) => {
    setValue(next);
    if (save.failure) save.reset();
  };

  return { value, change, submit, save };
}
