// tests/fixtures/tag_rules.json: the server's tag and page rules as the page config carries them,
// and the cases the server's tests and the editor's both pass (its _comment says how to read it).
import fixture from '../../../tests/fixtures/tag_rules.json';
import { parsePostRules, type PostRules } from '../config/app-config';

/** One case: tags as typed, what is stored, or the messages by the server's keys. */
export interface TagRulesCase {
  name: string;
  tags: string[];
  repeat?: number;
  normalized?: string[];
  errors?: Record<string, string>;
}

/** The fixture's rules, read the way the app reads the page config's. */
export function fixturePostRules(): PostRules {
  const rules = parsePostRules(fixture.rules);
  if (!rules) throw new Error('tests/fixtures/tag_rules.json: its rules are not valid post rules');
  return rules;
}

/** Every case, with `repeat` applied. */
export const tagRulesCases: readonly TagRulesCase[] = (fixture.cases as unknown as TagRulesCase[]).map((c) => {
  const last = c.tags[c.tags.length - 1] ?? '';
  const extra = Array.from({ length: c.repeat ?? 0 }, (_, n) => `${last}${n}`);
  return { ...c, tags: [...c.tags, ...extra] };
});
