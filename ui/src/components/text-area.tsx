import { useLayoutEffect, useRef, type ChangeEvent, type ComponentPropsWithRef } from 'react';
import { cx } from '../lib/cx';
import { Field, useField, type LabelledProps } from './field';

export interface TextAreaProps
  extends LabelledProps, Omit<ComponentPropsWithRef<'textarea'>, 'value' | 'onChange' | 'children'> {
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Visible lines; 8 by default, the size of the editor's paragraph block (its main use). */
  rows?: number;
  /** Grows with its text (never fewer than `rows` lines), so a long text never scrolls inside the box. */
  grow?: boolean;
}

/** Whether the browser sizes a textarea to its content by itself (CSS `field-sizing`). */
const sizesItself = () =>
  typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');

/** A labelled multi-line input. `className` applies to the wrapper; other props go to the <textarea>. */
export function TextArea({ value, onChange, rows = 8, grow = false, ...props }: TextAreaProps) {
  const { field, control } = useField(props);
  const own = useRef<HTMLTextAreaElement | null>(null);
  // Where CSS cannot (field-sizing), the height follows the text from here; `rows` stays the least.
  useLayoutEffect(() => {
    const area = own.current;
    if (!grow || !area || sizesItself()) return;
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
  }, [grow, value]);
  const { ref, ...rest } = control as typeof control & { ref?: ComponentPropsWithRef<'textarea'>['ref'] };
  return (
    <Field {...field}>
      <textarea
        {...rest}
        ref={(element) => {
          own.current = element;
          if (typeof ref === 'function') ref(element);
          else if (ref) ref.current = element;
        }}
        className={cx('q-input q-textarea', grow && 'q-textarea--grow')}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value, event)}
      />
    </Field>
  );
}
