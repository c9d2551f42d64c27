import type { ChangeEvent, ComponentPropsWithRef, ReactNode } from 'react';
import { describedBy, Field, useFieldIds } from './field';

export interface TextAreaProps extends Omit<ComponentPropsWithRef<'textarea'>, 'value' | 'onChange' | 'children'> {
  label: ReactNode;
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Visible lines; 8 by default, the size of the editor's paragraph block (its main use). */
  rows?: number;
  error?: string | null | undefined;
  hint?: ReactNode;
  hideLabel?: boolean;
}

/** A labelled multi-line input. `className` applies to the wrapper; other props go to the <textarea>. */
export function TextArea({
  label,
  value,
  onChange,
  rows = 8,
  error,
  hint,
  hideLabel,
  id,
  className,
  required,
  disabled,
  ...rest
}: TextAreaProps) {
  const ids = useFieldIds(id);
  return (
    <Field
      ids={ids}
      label={label}
      hint={hint}
      error={error}
      required={required}
      disabled={disabled}
      hideLabel={hideLabel}
      className={className}
    >
      <textarea
        {...rest}
        id={ids.inputId}
        className="q-input q-textarea"
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value, event)}
        required={required}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint && ids.hintId, error && ids.errorId, rest['aria-describedby'])}
      />
    </Field>
  );
}
