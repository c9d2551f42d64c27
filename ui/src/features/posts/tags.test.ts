import { describe, expect, it } from 'vitest';
import { fixturePostRules, tagRulesCases } from '../../test/tag-rules-fixture';
import { normalizeTags, pageProblem } from './tags';

describe('the tag rules', () => {
  const rules = fixturePostRules();

  it.each(tagRulesCases.map((c) => [c.name, c] as const))('%s: the shared fixture case', (_name, c) => {
    const result = normalizeTags(c.tags, rules);
    if (c.errors) expect(result.errors).toEqual(c.errors);
    else {
      expect(result.errors).toBeNull();
      expect(result.tags).toEqual(c.normalized);
    }
  });

  it("refuses a page whose title gives one of the blog's own addresses", () => {
    expect(pageProblem('Search', rules)).toBe(
      'The address /search belongs to the blog itself: give the page another title',
    );
    expect(pageProblem('Theme dark', rules)).toMatch(/\/theme-dark belongs/);
    expect(pageProblem('About', rules)).toBeNull();
    expect(pageProblem('Café', rules)).toBeNull();
  });
});
