import type { ChangeEvent, ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from '../lib/cx';
import { Field, useField, type LabelledProps } from './field';

export interface TextInputProps
  extends LabelledProps, Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'prefix' | 'type' | 'children'> {
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  type?: 'text' | 'email' | 'url' | 'search' | 'password' | 'tel' | 'datetime-local';
  /** Text or element fixed before the input, e.g. `https://`. */
  prefix?: ReactNode;
  /** Text or element fixed after the input, e.g. `.localhost:8080` beside a subdomain. */
  suffix?: ReactNode;
}

/** A labelled single-line input. `className` applies to the wrapper; other props go to the <input>. */
export function TextInput({ value, onChange, type = 'text', prefix, suffix, ...props }: TextInputProps) {
  // The prefix and suffix are read with the input, before its hint and error.
  const { ids, field, control } = useField(props, (ids) => [prefix && ids.prefixId, suffix && ids.suffixId]);
  return (
    <Field {...field}>
      <div className={cx('q-input-group', (prefix || suffix) && 'q-input-group--addons')}>
        {prefix && (
          <span id={ids.prefixId} className="q-input-group__addon q-input-group__addon--prefix">
            {prefix}
          </span>
        )}
        <input
          {...control}
          type={type}
          className="q-input"
          value={value}
          onChange={(event) => onChange(event.target.value, event)}
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
