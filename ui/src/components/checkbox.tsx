import type { ChangeEvent, ComponentPropsWithRef } from 'react';
import { cx } from '../lib/cx';
import { FieldMessages, useField, type LabelledProps } from './field';

export interface CheckboxProps
  extends
    Omit<LabelledProps, 'hideLabel'>,
    Omit<ComponentPropsWithRef<'input'>, 'checked' | 'onChange' | 'type' | 'children'> {
  checked: boolean;
  onChange: (checked: boolean, event: ChangeEvent<HTMLInputElement>) => void;
}

/** A native checkbox with its label beside it; the whole label is clickable. */
export function Checkbox({ checked, onChange, ...props }: CheckboxProps) {
  const { ids, field, control } = useField(props);
  return (
    <div
      className={cx(
        'q-checkbox',
        field.error && 'q-field--invalid',
        field.disabled && 'q-checkbox--disabled',
        field.className,
      )}
    >
      <div className="q-checkbox__row">
        <input
          {...control}
          type="checkbox"
          className="q-checkbox__input"
          checked={checked}
          onChange={(event) => onChange(event.target.checked, event)}
        />
        <label htmlFor={ids.inputId} className="q-checkbox__label">
          {field.label}
        </label>
      </div>
      <FieldMessages ids={ids} hint={field.hint} error={field.error} />
    </div>
  );
}
