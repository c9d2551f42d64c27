import { SaveButton, Select } from '../../components';
import { useLoad } from '../../lib/use-load';
import { failureText } from '../../lib/use-save-action';
import type { Blog } from '../blogs';
import { fetchTimeZones, setTimeZone } from './api';
import { useSavedValue } from './use-saved-value';

/** `America/New_York` reads as `America/New York`; the value stays the IANA name. */
const labelOf = (zone: string) => zone.replaceAll('_', ' ');

/**
 * The blog's time zone: the public blog shows every date in it, so a post written late in the
 * evening carries the same day there as in the owner's list. Starts as the browser's zone.
 */
export function TimeZoneForm({ blog }: { blog: Blog }) {
  const load = useLoad(fetchTimeZones, []);
  const zone = useSavedValue(blog.timeZone, async (value) => (await setTimeZone(blog.id, value)).timeZone);
  // Until the list is in, and for an old alias the list leaves out, the blog's own zone is a choice.
  const offered = load.lastData ?? [];
  const zones = offered.includes(blog.timeZone) ? offered : [blog.timeZone, ...offered];
  return (
    <form className="q-settings__row" onSubmit={zone.submit} noValidate>
      <Select
        label="Time Zone"
        className="q-settings__grow"
        options={zones.map((name) => ({ value: name, label: labelOf(name) }))}
        value={zone.value}
        onChange={zone.change}
        hint="Dates on your public blog are shown in this time zone."
        error={failureText(zone.save.failure, 'timeZone') ?? failureText(load.lastError)}
      />
      <SaveButton type="submit" action={zone.save} />
    </form>
  );
}
