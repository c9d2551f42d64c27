// A value of the Blog panel that is saved with its own button, and kept in step with the blog.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSaveAction } from '../../lib/use-save-action';
import { refreshBlogInBackground } from '../blogs';

/**
 * One value of the Blog panel saved with its own button: the value shown, `change` for its input
 * (which also forgets the last failure, so the message goes once the owner edits), and `submit`,
 * which sends it with `send`, shows what the server answered (`send` resolves with it) and
 * refreshes the blog in the background. `current` is the blog's value: when it changes other than
 * by this field's save (an import), the field starts afresh from it, as when it opened.
 */
export function useSavedValue(current: string, send: (value: string) => Promise<string>) {
  const [value, setValue] = useState(current);
  const save = useSaveAction();
  const { reset } = save;
  /** The blog's value as this field knows it: as it opened, or as its last save answered. */
  const known = useRef(current);

  useEffect(() => {
    if (current === known.current) return;
    known.current = current;
    setValue(current);
    reset();
  }, [current, reset]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(async () => {
      const saved = await send(value);
      known.current = saved;
      setValue(saved);
      refreshBlogInBackground();
    });
  };

  const change = (next: string) => {
    setValue(next);
    if (save.failure) save.reset();
  };

  return { value, change, submit, save };
}
