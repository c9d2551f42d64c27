import { describe, expect, it } from 'vitest';
import type { Block } from './api';
import { alignBlocks, allChoices, merge, tagsDiffer, type ConflictSide } from './conflict';

const h = (text: string): Block => ({ type: 'heading', value: { text } });
const p = (text: string): Block => ({ type: 'paragraph', value: { text } });

const side = (blocks: Block[], tags: string[] = []): ConflictSide => ({ blocks, tags });

describe('lining the two versions up', () => {
  it('keeps equal blocks once and pairs the differing ones by place', () => {
    const rows = alignBlocks([h('Title'), p('Mine'), p('End')], [h('Title'), p('Theirs'), p('End')]);
    expect(rows).toEqual([
      { kind: 'same', block: h('Title') },
      { kind: 'differs', mine: p('Mine'), theirs: p('Theirs') },
      { kind: 'same', block: p('End') },
    ]);
  });

  it('does not mark every later block as changed when one side inserted a block', () => {
    const rows = alignBlocks([h('T'), p('A'), p('B')], [h('T'), p('New'), p('A'), p('B')]);
    expect(rows.filter((row) => row.kind === 'differs')).toEqual([{ kind: 'differs', mine: null, theirs: p('New') }]);
    expect(rows).toHaveLength(4);
  });

  it('compares block values whatever the order of their keys', () => {
    const a: Block = { type: 'link', value: { url: 'https://a.example', title: 'A' } };
    const b = { type: 'link', value: { title: 'A', url: 'https://a.example' } } as Block;
    expect(alignBlocks([a], [b])).toEqual([{ kind: 'same', block: a }]);
  });
});

describe('merging', () => {
  const mine = side([h('Notes'), p('From the phone'), p('Shared')], ['a', 'b']);
  const theirs = side([h('Notes'), p('From the laptop'), p('Shared'), p('Laptop ending')], ['b', 'c']);
  const rows = alignBlocks(mine.blocks, theirs.blocks);

  it("'Keep mine' gives my version back and 'Take theirs' the saved one", () => {
    expect(merge(rows, allChoices(rows, 'mine'), mine, theirs)).toEqual(mine);
    expect(merge(rows, allChoices(rows, 'theirs'), mine, theirs)).toEqual(theirs);
  });

  it('keeps a block from each side when each block is chosen on its own', () => {
    const choices = allChoices(rows, 'mine');
    const differing = rows.flatMap((row, i) => (row.kind === 'differs' ? [i] : []));
    expect(differing).toHaveLength(2);
    choices.rows[differing[1]!] = 'theirs'; // the laptop's new ending
    expect(merge(rows, choices, mine, theirs).blocks).toEqual([
      h('Notes'),
      p('From the phone'),
      p('Shared'),
      p('Laptop ending'),
    ]);
  });

  it("'Both' keeps my block then theirs, and unions the tags", () => {
    const choices = allChoices(rows, 'both');
    const merged = merge(rows, choices, mine, theirs);
    expect(merged.blocks).toEqual([
      h('Notes'),
      p('From the phone'),
      p('From the laptop'),
      p('Shared'),
      p('Laptop ending'),
    ]);
    expect(merged.tags).toEqual(['a', 'b', 'c']);
  });

  it('sees tags as different when their order differs', () => {
    expect(tagsDiffer(['a', 'b'], ['a', 'b'])).toBe(false);
    expect(tagsDiffer(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(tagsDiffer([], ['a'])).toBe(true);
  });
});
