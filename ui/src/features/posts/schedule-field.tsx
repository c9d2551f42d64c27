import { TextInput } from '../../components';
import { hasSeconds } from './schedule';

export interface ScheduleFieldProps {
  /** A datetime-local value in the owner's time zone; '' publishes now. */
  value: string;
  onChange: (value: string) => void;
  /** 'Mark as draft' is on: a draft is never scheduled. */
  disabled: boolean;
  /** The server's or the editor's message about the time. */
  error: string | null;
}

/** 'Publish at': an optional local date and time; the post appears on the blog then, not at once. */
export function ScheduleField({ value, onChange, disabled, error }: ScheduleFieldProps) {
  return (
    <TextInput
      type="datetime-local"
      label="Publish at"
      hint={disabled ? 'Drafts are not scheduled.' : 'Optional. Your local time; leave it empty to publish now.'}
      className="q-post-editor__schedule"
      value={value}
      step={hasSeconds(value) ? 1 : 60}
      onChange={onChange}
      disabled={disabled}
      error={error}
    />
  );
}
