import type { ChangeEvent, ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from '../lib/cx';
import { describedBy, Field, useFieldIds } from './field';

export interface TextInputProps
  extends Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'prefix' | 'type' | 'children'> {
  label: ReactNode;
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  type?: 'text' | 'email' | 'url' | 'search' | 'password' | 'tel';
  /** Shown under the input in the error colour; marks the input invalid. */
  error?: string | null | undefined;
  /** Help text under the input. */
  hint?: ReactNode;
  /** Text or element fixed before the input, e.g. `https://`. */
  prefix?: ReactNode;
  /** Text or element fixed after the input, e.g. `.localhost:8080` beside a subdomain. */
  suffix?: ReactNode;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean;
}

/** A labelled single-line input. `className` applies to the wrapper; other props go to the <input>. */
export function TextInput({
  label,
  value,
  onChange,
  type = 'text',
  error,
  hint,
  prefix,
  suffix,
  hideLabel,
  id,
  className,
  required,
  disabled,
  ...rest
}: TextInputProps) {
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
      <div className={cx('q-input-group', (prefix || suffix) && 'q-input-group--addons')}>
        {prefix && (
          <span id={ids.prefixId} className="q-input-group__addon q-input-group__addon--prefix">
            {prefix}
          </span>
        )}
        <input
          {...rest}
          id={ids.inputId}
          type={type}
          className="q-input"
          value={value}
          onChange={(event) => onChange(event.target.value, event)}
          required={required}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(
            prefix && ids.prefixId,
            suffix && ids.suffixId,
            hint && ids.hintId,
            error && ids.errorId,
            rest['aria-describedby'],
          )}
        />
        {suffix && (
          <span id={ids.suffixId} className="q-input-group__addon q-input-group__addon--suffix">
            {suffix}
          </span>
        )}
      </div>
    </Field>
  );
}
