// Scheduled publishing (docs/api.md, 'Posts'): the editor's date input holds the owner's local
// time ('2030-01-31T09:00', a datetime-local value); the server takes and answers UTC RFC 3339.
// The checks and messages are the server's (src/domain/schedule.rs), from the page config's
// `scheduleRules`, and both sides pass tests/fixtures/schedule_rules.json.
import type { ScheduleRules } from '../../config/app-config';

/** The message for a time that has already come. */
export const IN_THE_PAST = 'Should be in the future';
/** The message for a time too far ahead. */
export const TOO_FAR = 'Should be at most 10 years ahead';
/** The message for a value that is not a date and time. */
export const MALFORMED = 'Should be a date and time such as 2030-01-31T09:00:00Z';

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** A datetime-local value ('2030-01-31T09:00', the browser's time zone) as a time; null when blank or not one. */
export function parseLocalInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const date = new Date(year!, month! - 1, day!, hour!, minute!, second!);
  // Rejects dates that roll over (31 February) rather than moving them.
  return date.getDate() === day && date.getMonth() === month! - 1 ? date : null;
}

/**
 * A time as a datetime-local value in the browser's time zone: to the minute, or to the second
 * when it has seconds (cutting them would move a scheduled time earlier, maybe into the past).
 */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const minutes = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.getSeconds() === 0 ? minutes : `${minutes}:${pad(date.getSeconds())}`;
}

/** Whether a datetime-local value holds seconds (its input then steps by the second). */
export const hasSeconds = (value: string): boolean => /T\d{2}:\d{2}:\d{2}/.test(value);

/** The server's check of a time to publish at, seen at `now`: the message, or null when it is fine. */
export function checkPublishAt(at: Date | null, now: Date, rules: ScheduleRules): string | null {
  if (at === null || Number.isNaN(at.getTime())) return MALFORMED;
  if (at.getTime() <= now.getTime()) return IN_THE_PAST;
  if (at.getTime() > now.getTime() + rules.maxDaysAhead * DAY_MS) return TOO_FAR;
  return null;
}

/** Whether the date input holds a time still to come (the save will schedule rather than publish). */
export function isFutureInput(value: string, now: Date = new Date()): boolean {
  const at = parseLocalInput(value);
  return at !== null && at.getTime() > now.getTime();
}
