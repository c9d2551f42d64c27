import type { ChangeEvent, ComponentPropsWithRef } from 'react';
import { Field, useField, type LabelledProps } from './field';

export interface TextAreaProps
  extends LabelledProps, Omit<ComponentPropsWithRef<'textarea'>, 'value' | 'onChange' | 'children'> {
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Visible lines; 8 by default, the size of the editor's paragraph block (its main use). */
  rows?: number;
}

/** A labelled multi-line input. `className` applies to the wrapper; other props go to the <textarea>. */
export function TextArea({ value, onChange, rows = 8, ...props }: TextAreaProps) {
  const { field, control } = useField(props);
  return (
    <Field {...field}>
      <textarea
        {...control}
        className="q-input q-textarea"
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value, event)}
      />
    </Field>
  );
}
