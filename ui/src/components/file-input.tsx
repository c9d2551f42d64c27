import type { ChangeEvent, ComponentPropsWithRef } from 'react';
import { Field, useField, type LabelledProps } from './field';

export interface FileInputProps
  extends LabelledProps, Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'type' | 'children' | 'multiple'> {
  /** The file chosen, or null when the choice was cleared. */
  onChange: (file: File | null, event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * A labelled native file picker for one file, with the hint and error lines of the other fields.
 * It keeps its own value (browsers allow no other); clear it through a `ref` (`value = ''`).
 */
export function FileInput({ onChange, ...props }: FileInputProps) {
  const { field, control } = useField(props);
  return (
    <Field {...field}>
      <input
        {...control}
        type="file"
        className="q-input q-file-input"
        onChange={(event) => onChange(event.target.files?.[0] ?? null, event)}
      />
    </Field>
  );
}
