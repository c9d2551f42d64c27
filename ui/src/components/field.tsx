// Pieces shared by the form controls: stable ids, the label, the hint/error lines that the
// control points at with aria-describedby, the `Field` wrapper that puts them around a control,
// and `useField`, which splits a control's props between the two (TextInput, TextArea, Select
// and Checkbox all use it).
import { useId, type ReactNode } from 'react';
import { cx } from '../lib/cx';

/** Ids for one control and the texts describing it. */
export interface FieldIds {
  inputId: string;
  hintId: string;
  errorId: string;
  prefixId: string;
  suffixId: string;
}

/** Stable ids for a control; `id` overrides the control's own id. */
export function useFieldIds(id?: string): FieldIds {
  const generated = useId();
  const inputId = id ?? `q-${generated.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return {
    inputId,
    hintId: `${inputId}-hint`,
    errorId: `${inputId}-error`,
    prefixId: `${inputId}-prefix`,
    suffixId: `${inputId}-suffix`,
  };
}

/** The space-separated aria-describedby value, or undefined when nothing describes the control. */
export function describedBy(...ids: unknown[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length > 0 ? list.join(' ') : undefined;
}

function FieldLabel({
  htmlFor,
  required,
  hidden,
  children,
}: {
  htmlFor: string;
  required?: boolean | undefined;
  hidden?: boolean | undefined;
  children: ReactNode;
}) {
  return (
    <label htmlFor={htmlFor} className={cx('q-field__label', hidden && 'q-visually-hidden')}>
      {children}
      {required && (
        <span className="q-field__required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </label>
  );
}

export function FieldMessages({
  ids,
  hint,
  error,
}: {
  ids: FieldIds;
  hint?: ReactNode | undefined;
  error?: string | null | undefined;
}) {
  return (
    <>
      {hint && (
        <p id={ids.hintId} className="q-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.errorId} className="q-field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

export interface FieldProps {
  ids: FieldIds;
  label: ReactNode;
  hint?: ReactNode | undefined;
  error?: string | null | undefined;
  required?: boolean | undefined;
  disabled?: boolean | undefined;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean | undefined;
  className?: string | undefined;
  /** The control itself (with whatever sits beside it). */
  children: ReactNode;
}

/** A labelled form control: the label above, the control, then its hint and error lines. */
export function Field({ ids, label, hint, error, required, disabled, hideLabel, className, children }: FieldProps) {
  return (
    <div className={cx('q-field', error && 'q-field--invalid', disabled && 'q-field--disabled', className)}>
      <FieldLabel htmlFor={ids.inputId} required={required} hidden={hideLabel}>
        {label}
      </FieldLabel>
      {children}
      <FieldMessages ids={ids} hint={hint} error={error} />
    </div>
  );
}

/** The props every labelled control takes besides its element's own. */
export interface LabelledProps {
  label: ReactNode;
  /** Shown under the control in the error colour; marks the control invalid. */
  error?: string | null | undefined;
  /** Help text under the control. */
  hint?: ReactNode;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean;
}

/** What `useField` takes: the labelled props and the element props the wrapper also needs. */
interface FieldInput extends LabelledProps {
  id?: string | undefined;
  className?: string | undefined;
  required?: boolean | undefined;
  disabled?: boolean | undefined;
  'aria-describedby'?: string | undefined;
}

/**
 * Splits a labelled control's props: `field` for the `Field` around it (`className` styles the
 * wrapper), `control` for the element itself: every other prop, plus its id, `required`,
 * `disabled`, `aria-invalid` while there is an error, and `aria-describedby` naming what
 * `describers` returns (a prefix, a suffix), then the hint, the error and any id the caller gave.
 */
export function useField<P extends FieldInput>(props: P, describers: (ids: FieldIds) => unknown[] = () => []) {
  const {
    label,
    error,
    hint,
    hideLabel,
    id,
    className,
    required,
    disabled,
    'aria-describedby': describes,
    ...rest
  } = props;
  const ids = useFieldIds(id);
  const field = { ids, label, hint, error, required, disabled, hideLabel, className };
  const control = {
    ...rest,
    id: ids.inputId,
    required,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(...describers(ids), hint && ids.hintId, error && ids.errorId, describes),
  };
  return { ids, field, control };
}
