import type { ChangeEvent, ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from '../lib/cx';
import { describedBy, FieldLabel, FieldMessages, useFieldIds } from './field';

export interface TextAreaProps extends Omit<ComponentPropsWithRef<'textarea'>, 'value' | 'onChange' | 'children'> {
  label: ReactNode;
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Visible lines; 8 by default (the paragraph block's size, SPEC §9). */
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
    <div className={cx('q-field', error && 'q-field--invalid', disabled && 'q-field--disabled', className)}>
      <FieldLabel htmlFor={ids.inputId} required={required} hidden={hideLabel}>
        {label}
      </FieldLabel>
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
      <FieldMessages ids={ids} hint={hint} error={error} />
    </div>
  );
}
