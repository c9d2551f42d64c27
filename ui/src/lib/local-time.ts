/** A time as the owner's browser shows dates and times. */
export function localTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A day as the owner's browser shows dates, e.g. "Nov 20, 2026". */
export function localDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** The time of day alone as the owner's browser shows it, e.g. "10:12 AM". */
export function localClock(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' });
}
