import { describe, expect, it } from 'vitest';
import { blockRulesCases, expandChildren, fixtureRules } from '../../test/block-rules-fixture';
import type { Block } from './api';
import { blockProblem, bodyProblem, imageProblem, validateBlocks, validationRules } from './validation';

const rules = fixtureRules();

const heading = (text: string): Block => ({ type: 'heading', value: { text } });
const paragraph = (text: string): Block => ({ type: 'paragraph', value: { text } });
const link = (url: string, title = 'Text'): Block => ({ type: 'link', value: { url, title } });
const image = (url: string): Block => ({ type: 'image', value: { url } });
const spotify = (url: string): Block => ({ type: 'spotify', value: { url } });
const tweet = (url: string): Block => ({ type: 'tweet', value: { url } });

/** The messages by the server's keys: `body` first, as the server checks it before the blocks. */
function serverErrors(children: Block[]): Record<string, string> {
  const problem = bodyProblem(children, rules);
  if (problem) return { body: problem };
  return Object.fromEntries(
    Object.entries(validateBlocks(children, rules)).map(([index, message]) => [`children.${index}`, message]),
  );
}

describe("the server's block rules (tests/fixtures/block_rules.json)", () => {
  const cases = blockRulesCases.filter((rulesCase) => !rulesCase.serverOnly);

  it('cover every block type the rules name', () => {
    const types = new Set(cases.flatMap((c) => c.children.map((child) => (child as Block).type)));
    expect([...types].sort()).toEqual([...rules.blockTypes].sort());
  });

  it.each(cases.map((rulesCase) => [rulesCase.name, rulesCase] as const))('%s', (_name, rulesCase) => {
    expect(serverErrors(expandChildren(rulesCase) as Block[])).toEqual(rulesCase.errors);
  });
});

describe('block validation', () => {
  it('takes every limit and prefix from the rules it is given', () => {
    const imgur = { ...rules, imagePrefix: 'https://i.imgur.com/' };
    expect(blockProblem(image('http://localhost:8080/media/abc.png'), imgur)).toBe(
      'Should start with https://i.imgur.com/',
    );
    expect(blockProblem(image('https://i.imgur.com/abc.png'), imgur)).toBeNull();

    const strict = { ...rules, maxHeading: 5, maxUrl: 20, maxBlocks: 2, tweetPrefixes: ['https://x.com/'] };
    expect(blockProblem(heading('123456'), strict)).toBe('Should be at most 5 characters');
    expect(blockProblem(link('https://example.com/abc'), strict)).toBe('Should be at most 20 characters');
    expect(blockProblem(tweet('https://twitter.com/a'), strict)).toBe('Should start with https://x.com/');
    expect(bodyProblem([paragraph('a'), paragraph('b'), spotify('c')], strict)).toBe(
      'A post can have at most 2 blocks',
    );
  });

  it('can leave one index out', () => {
    const blocks = [heading('  '), paragraph('fine'), link('ftp://x'), spotify('')];
    expect(validateBlocks(blocks, rules, 3)).not.toHaveProperty('3');
    expect(Object.keys(validateBlocks(blocks, rules, 3))).toEqual(['0', '2']);
  });

  it('refuses to start without the rules: the server must send them', () => {
    expect(() => validationRules({ blockRules: null })).toThrow(/no block rules/);
    expect(validationRules({ blockRules: rules })).toBe(rules);
  });
});

describe('image files', () => {
  const file = (type: string, size: number) => ({ type, size });

  it("takes JPEG, PNG and GIF up to the server's size, with the server's messages", () => {
    expect(imageProblem(file('image/png', 8), rules)).toBeNull();
    expect(imageProblem(file('image/jpeg', 10 * 1024 * 1024), rules)).toBeNull();
    expect(imageProblem(file('image/gif', 10 * 1024 * 1024 + 1), rules)).toBe('Images can be at most 10 MB');
    expect(imageProblem(file('image/webp', 8), rules)).toBe('Only JPEG, PNG and GIF images can be uploaded');
    expect(imageProblem(file('', 8), rules)).toBe('Only JPEG, PNG and GIF images can be uploaded');
  });

  it('follows the rules it is given', () => {
    const two = { ...rules, imageTypes: ['image/png', 'image/webp'], maxImageBytes: 2 * 1024 * 1024 };
    expect(imageProblem(file('image/jpeg', 8), two)).toBe('Only PNG and WEBP images can be uploaded');
    expect(imageProblem(file('image/webp', 3 * 1024 * 1024), two)).toBe('Images can be at most 2 MB');
  });
});
