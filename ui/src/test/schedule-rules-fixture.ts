// tests/fixtures/schedule_rules.json: the server's scheduling rules as the page config carries
// them, and the cases the server's tests and the editor's both pass (its _comment says how).
import fixture from '../../../tests/fixtures/schedule_rules.json';
import { parseScheduleRules, type ScheduleRules } from '../config/app-config';

/** One case: a time as sent and the message it gives (null when valid). */
export interface ScheduleRulesCase {
  publishAt: string;
  error: string | null;
  /** The form the server stores a valid time in. */
  stored?: string;
  /** A text the editor's date input cannot produce: only the server checks it. */
  serverOnly?: boolean;
}

/** The fixture's rules, read the way the app reads the page config's. */
export function fixtureScheduleRules(): ScheduleRules {
  const rules = parseScheduleRules(fixture.rules);
  if (!rules) throw new Error('tests/fixtures/schedule_rules.json: its rules are not valid schedule rules');
  return rules;
}

/** The time every case is checked at. */
export const scheduleNow = new Date(fixture.now);

/** Every case of the fixture. */
export const scheduleRulesCases = fixture.cases as unknown as readonly ScheduleRulesCase[];
