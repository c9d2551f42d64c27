import type { ChangeEvent, ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from '../lib/cx';
import { describedBy, FieldMessages, useFieldIds } from './field';

export interface CheckboxProps extends Omit<ComponentPropsWithRef<'input'>, 'checked' | 'onChange' | 'type' | 'children'> {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean, event: ChangeEvent<HTMLInputElement>) => void;
  hint?: ReactNode;
  error?: string | null | undefined;
}

/** A native checkbox with its label beside it; the whole label is clickable. */
export function Checkbox({ label, checked, onChange, hint, error, id, className, disabled, ...rest }: CheckboxProps) {
  const ids = useFieldIds(id);
  return (
    <div className={cx('q-checkbox', error && 'q-field--invalid', disabled && 'q-checkbox--disabled', className)}>
      <div className="q-checkbox__row">
        <input
          {...rest}
          id={ids.inputId}
          type="checkbox"
          className="q-checkbox__input"
          checked={checked}
          onChange={(event) => onChange(event.target.checked, event)}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hint && ids.hintId, error && ids.errorId, rest['aria-describedby'])}
        />
        <label htmlFor={ids.inputId} className="q-checkbox__label">
          {label}
        </label>
      </div>
      <FieldMessages ids={ids} hint={hint} error={error} />
    </div>
  );
}
