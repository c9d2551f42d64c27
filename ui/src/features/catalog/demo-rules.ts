// The constraints the catalog's demo inputs use, to show the inputs' validation states: minlength
// 3, maxlength 10 and a pattern check. The same values feed the native attributes and the visible
// message.

export const demoRules = {
  minLength: 3,
  maxLength: 10,
  /** HTML pattern syntax: the whole value must match. */
  pattern: '[a-z0-9]+',
} as const;

/** One line describing the rules, shown under the demo inputs. */
export const demoRulesHint = `${demoRules.minLength}–${demoRules.maxLength} characters: lowercase letters and digits only.`;

const whole = new RegExp(`^(?:${demoRules.pattern})$`);

/** The message for an invalid demo value, or null when it is valid (or still empty and untouched). */
export function demoValidationMessage(value: string, touched = false): string | null {
  if (value === '') return touched ? "Can't be blank" : null;
  if (value.length < demoRules.minLength) {
    return `Too short: use at least ${demoRules.minLength} characters (now ${value.length}).`;
  }
  if (value.length > demoRules.maxLength) {
    return `Too long: use at most ${demoRules.maxLength} characters (now ${value.length}).`;
  }
  if (!whole.test(value)) return 'Use only lowercase letters (a–z) and digits (0–9).';
  return null;
}
