// tests/fixtures/block_rules.json: the server's block rules as the page config carries them, and
// the cases the server's tests and the editor's both pass (its _comment says how to read it).
import fixture from '../../../tests/fixtures/block_rules.json';
import { parseBlockRules, type BlockRules } from '../config/app-config';

/** One case: a body's children and the messages they give, by the server's keys. */
export interface BlockRulesCase {
  name: string;
  children: unknown[];
  /** `children.N` or `body` to message; empty when the body is valid. */
  errors: Record<string, string>;
  /** Appends `count` copies of `char` to `children[index].value[field]`. */
  repeat?: { index: number; field: string; char: string; count: number };
  /** The body is this many copies of `children`. */
  repeatChildren?: number;
  /** A shape the editor cannot produce: only the server checks it. */
  serverOnly?: boolean;
}

/** The fixture's rules, read the way the app reads the page config's. */
export function fixtureRules(): BlockRules {
  const rules = parseBlockRules(fixture.rules);
  if (!rules) throw new Error('tests/fixtures/block_rules.json: its rules are not valid block rules');
  return rules;
}

/** Every case of the fixture (the type TypeScript infers from the JSON knows no optional keys). */
export const blockRulesCases = fixture.cases as unknown as readonly BlockRulesCase[];

/** A case's children with `repeat` and then `repeatChildren` applied. */
export function expandChildren({ children, repeat, repeatChildren = 1 }: BlockRulesCase): unknown[] {
  const copy = structuredClone(children) as { value: Record<string, string> }[];
  if (repeat) {
    const value = copy[repeat.index]?.value;
    if (!value) throw new Error(`repeat: no block ${repeat.index} with a value`);
    value[repeat.field] = (value[repeat.field] ?? '') + repeat.char.repeat(repeat.count);
  }
  return Array.from({ length: repeatChildren }, () => copy).flat();
}
