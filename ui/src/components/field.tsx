// Pieces shared by the form controls: stable ids, the label, the hint/error lines that the
// control points at with aria-describedby, and the `Field` wrapper that puts them around a
// control (TextInput, TextArea and Select all use it).
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
