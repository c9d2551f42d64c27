import { describe, expect, it } from 'vitest';
import type { Block } from '../api';
import { diffBlocks } from './block-diff';

const p = (text: string): Block => ({ type: 'paragraph', value: { text } });
const h = (text: string): Block => ({ type: 'heading', value: { text } });
const link = (url: string): Block => ({ type: 'link', value: { url, title: '' } });

describe('block diff', () => {
  it('keeps unchanged blocks, marks added and removed ones', () => {
    const rows = diffBlocks([h('Hi'), p('one'), link('https://a.example')], [h('Hi'), p('one'), p('two')]);
    expect(rows.map((r) => r.kind)).toEqual(['same', 'same', 'removed', 'added']);
  });

  it('pairs a replaced block of the same type as changed, with its words marked', () => {
    const rows = diffBlocks([h('Title'), p('the quick brown fox')], [h('Title'), p('the slow brown fox jumps')]);
    expect(rows.map((r) => r.kind)).toEqual(['same', 'changed']);
    const changed = rows[1];
    if (changed?.kind !== 'changed') throw new Error('expected a changed block');
    expect(changed.words.filter((w) => w.removed).map((w) => w.text.trim())).toEqual(['quick']);
    expect(changed.words.filter((w) => w.added).map((w) => w.text.trim())).toEqual(['slow', 'jumps']);
    expect(changed.words.map((w) => w.text).join('')).toContain('brown fox');
  });

  it('finds a block inserted in the middle without marking those after it', () => {
    const rows = diffBlocks([p('a'), p('c')], [p('a'), p('b'), p('c')]);
    expect(rows.map((r) => r.kind)).toEqual(['same', 'added', 'same']);
  });

  it('sees two identical versions as the same', () => {
    expect(diffBlocks([h('x'), p('y')], [h('x'), p('y')]).every((r) => r.kind === 'same')).toBe(true);
  });
});
