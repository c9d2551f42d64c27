// A readable diff of two versions of a post (docs/revisions.md): block by block (added, removed,
// changed, unchanged), and within a changed block its words, through jsdiff's `diffArrays` and
// `diffWords`.
import { diffArrays, diffWords } from 'diff';
import type { Block } from '../api';

/** One stretch of a changed block's text: kept, added (<ins>) or removed (<del>). */
export interface WordChange {
  text: string;
  added: boolean;
  removed: boolean;
}

/** One row of the diff, in the order of the newer version. */
export type BlockChange =
  | { kind: 'same'; block: Block }
  | { kind: 'added'; block: Block }
  | { kind: 'removed'; block: Block }
  | { kind: 'changed'; before: Block; after: Block; words: WordChange[] };

/** The words of a block as the diff compares them: its text, or its URL and titles. */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
      return block.value.text;
    case 'link':
      return [block.value.title, block.value.url].filter(Boolean).join(' ');
    case 'image':
      return [block.value.alt, block.value.caption, block.value.url].filter(Boolean).join(' ');
    case 'spotify':
    case 'tweet':
      return block.value.url;
  }
}

const sameBlock = (a: Block, b: Block) => a.type === b.type && JSON.stringify(a.value) === JSON.stringify(b.value);

/**
 * How `after` differs from `before`: blocks both have are `same`; a removed block followed by an
 * added one of the same type is one `changed` block with its words marked; the rest are `added`
 * or `removed`.
 */
export function diffBlocks(before: Block[], after: Block[]): BlockChange[] {
  const parts = diffArrays(before, after, { comparator: sameBlock });
  const rows: BlockChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      for (const block of part.value) rows.push({ kind: 'same', block });
      continue;
    }
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      // Removed then added: pair them by position where the types match.
      const removed = part.value;
      const added = next.value;
      const paired = Math.max(removed.length, added.length);
      for (let k = 0; k < paired; k++) {
        const old = removed[k];
        const now = added[k];
        if (old && now && old.type === now.type) {
          rows.push({
            kind: 'changed',
            before: old,
            after: now,
            words: diffWords(blockText(old), blockText(now)).map(word),
          });
        } else {
          if (old) rows.push({ kind: 'removed', block: old });
          if (now) rows.push({ kind: 'added', block: now });
        }
      }
      i++;
      continue;
    }
    for (const block of part.value) rows.push({ kind: part.added ? 'added' : 'removed', block });
  }
  return rows;
}

function word(change: { value: string; added?: boolean; removed?: boolean }): WordChange {
  return { text: change.value, added: Boolean(change.added), removed: Boolean(change.removed) };
}

/** Whether the two versions have the same blocks. */
export function sameBlocks(rows: BlockChange[]): boolean {
  return rows.every((row) => row.kind === 'same');
}
