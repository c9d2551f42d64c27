import type { ChangeEvent, ComponentPropsWithRef, ReactNode } from 'react';
import { describedBy, Field, useFieldIds } from './field';

/** One choice of a Select. */
export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends Omit<ComponentPropsWithRef<'select'>, 'value' | 'onChange' | 'children' | 'multiple'> {
  label: ReactNode;
  options: readonly SelectOption[];
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLSelectElement>) => void;
  /** A first, unselectable "choose one" entry shown while `value` is empty. */
  placeholder?: string;
  error?: string | null | undefined;
  hint?: ReactNode;
  hideLabel?: boolean;
}

/** A labelled native <select> (keyboard and screen-reader behaviour come from the platform). */
export function Select({
  label,
  options,
  value,
  onChange,
  placeholder,
  error,
  hint,
  hideLabel,
  id,
  className,
  required,
  disabled,
  ...rest
}: SelectProps) {
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
      <div className="q-select">
        <select
          {...rest}
          id={ids.inputId}
          className="q-input q-select__control"
          value={value}
          onChange={(event) => onChange(event.target.value, event)}
          required={required}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hint && ids.hintId, error && ids.errorId, rest['aria-describedby'])}
        >
          {placeholder !== undefined && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    </Field>
  );
}
