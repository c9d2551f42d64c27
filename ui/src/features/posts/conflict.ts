// The conflict screen's logic (docs/edit-conflicts.md): the blogger's version and the saved one
// lined up block by block, and the post merged from a choice per differing part. Pure: no DOM.
import type { Block } from './api';

/** What the conflict screen compares: one side's blocks and tags. */
export interface ConflictSide {
  blocks: Block[];
  tags: string[];
}

/** Which side a differing part keeps: the blogger's, the saved one, or both (the blogger's first). */
export type Choice = 'mine' | 'theirs' | 'both';

/** One row of the comparison: a block equal on both sides, or a place where they differ (a side may have no block there). */
export type ConflictRow =
  { kind: 'same'; block: Block } | { kind: 'differs'; mine: Block | null; theirs: Block | null };

/** The choices of a conflict: for the tags, and for each differing row by its index. */
export interface Choices {
  tags: Choice;
  rows: Record<number, Choice>;
}

const key = (block: Block) => JSON.stringify([block.type, Object.entries(block.value).sort()]);

/** Whether two blocks are the same. */
export function sameBlock(a: Block, b: Block): boolean {
  return key(a) === key(b);
}

/**
 * Lines the two sides up: the longest common run of equal blocks is kept in place ('same'), and
 * between two such blocks the others are paired by position ('differs'), so one inserted or
 * removed paragraph does not make every later block differ.
 */
export function alignBlocks(mine: readonly Block[], theirs: readonly Block[]): ConflictRow[] {
  const a = mine.map(key);
  const b = theirs.map(key);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const rows: ConflictRow[] = [];
  let [onlyMine, onlyTheirs]: [Block[], Block[]] = [[], []];
  const flush = () => {
    for (let k = 0; k < Math.max(onlyMine.length, onlyTheirs.length); k++) {
      rows.push({ kind: 'differs', mine: onlyMine[k] ?? null, theirs: onlyTheirs[k] ?? null });
    }
    [onlyMine, onlyTheirs] = [[], []];
  };
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      rows.push({ kind: 'same', block: mine[i]! });
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      onlyMine.push(mine[i]!);
      i++;
    } else {
      onlyTheirs.push(theirs[j]!);
      j++;
    }
  }
  flush();
  return rows;
}

/** What a choice keeps of one differing part. */
function kept<T>(choice: Choice, mine: T | null, theirs: T | null): T[] {
  const picked = choice === 'mine' ? [mine] : choice === 'theirs' ? [theirs] : [mine, theirs];
  return picked.filter((item): item is T => item !== null);
}

/** Every differing row and the tags set to one choice ('Keep mine', 'Take theirs'). */
export function allChoices(rows: readonly ConflictRow[], choice: Choice): Choices {
  const chosen: Record<number, Choice> = {};
  rows.forEach((row, index) => {
    if (row.kind === 'differs') chosen[index] = choice;
  });
  return { tags: choice, rows: chosen };
}

/** Whether the two sides' tags differ (in order too: the order is kept as typed). */
export function tagsDiffer(mine: readonly string[], theirs: readonly string[]): boolean {
  return mine.length !== theirs.length || mine.some((tag, i) => tag !== theirs[i]);
}

/** The merged post: equal blocks once, each differing row as chosen (unchosen rows keep mine), the tags as chosen ('both': every tag of either, once). */
export function merge(
  rows: readonly ConflictRow[],
  choices: Choices,
  mine: ConflictSide,
  theirs: ConflictSide,
): ConflictSide {
  const blocks = rows.flatMap((row, index) =>
    row.kind === 'same' ? [row.block] : kept(choices.rows[index] ?? 'mine', row.mine, row.theirs),
  );
  const tags =
    choices.tags === 'mine'
      ? mine.tags
      : choices.tags === 'theirs'
        ? theirs.tags
        : [...mine.tags, ...theirs.tags.filter((tag) => !mine.tags.includes(tag))];
  return { blocks, tags };
}
