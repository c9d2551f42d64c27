import type { ChangeEvent, ComponentPropsWithRef } from 'react';
import { Field, useField, type LabelledProps } from './field';

/** One choice of a Select. */
export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps
  extends LabelledProps, Omit<ComponentPropsWithRef<'select'>, 'value' | 'onChange' | 'children' | 'multiple'> {
  options: readonly SelectOption[];
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLSelectElement>) => void;
  /** A first, unselectable "choose one" entry shown while `value` is empty. */
  placeholder?: string;
}

/** A labelled native <select> (keyboard and screen-reader behaviour come from the platform). */
export function Select({ options, value, onChange, placeholder, ...props }: SelectProps) {
  const { field, control } = useField(props);
  return (
    <Field {...field}>
      <div className="q-select">
        <select
          {...control}
          className="q-input q-select__control"
          value={value}
          onChange={(event) => onChange(event.target.value, event)}
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
