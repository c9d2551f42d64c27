import type { Block } from '../api';
import { blockText, diffBlocks, type BlockChange } from './block-diff';

const KIND_LABEL: Record<BlockChange['kind'], string> = {
  same: 'Unchanged',
  added: 'Added since',
  removed: 'Only in this version',
  changed: 'Changed',
};

function Words({ row }: { row: Extract<BlockChange, { kind: 'changed' }> }) {
  return (
    <>
      {row.words.map((word, i) =>
        word.added ? <ins key={i}>{word.text}</ins> : word.removed ? <del key={i}>{word.text}</del> : word.text,
      )}
    </>
  );
}

function Row({ row }: { row: BlockChange }) {
  const block = row.kind === 'changed' ? row.after : row.block;
  return (
    <li className={`q-diff__block q-diff__block--${row.kind}`}>
      <span className="q-diff__kind">
        {KIND_LABEL[row.kind]} · {block.type}
      </span>
      <p className="q-diff__text">
        {row.kind === 'changed' ? (
          <Words row={row} />
        ) : row.kind === 'added' ? (
          <ins>{blockText(row.block)}</ins>
        ) : row.kind === 'removed' ? (
          <del>{blockText(row.block)}</del>
        ) : (
          blockText(row.block)
        )}
      </p>
    </li>
  );
}

export interface Version {
  title: string;
  tags: string[];
  blocks: Block[];
}

/**
 * A revision against the current version, block by block: what only the revision has is struck
 * (<del>), what only the current version has is marked (<ins>), a changed block shows its words so.
 */
export function RevisionDiff({ revision, current }: { revision: Version; current: Version }) {
  const rows = diffBlocks(revision.blocks, current.blocks);
  const tagsChanged = revision.tags.join('\u0000') !== current.tags.join('\u0000');
  return (
    <div className="q-diff">
      <p className="q-diff__legend">
        Compared with the current version: <del>only in this version</del> <ins>only in the current one</ins>
      </p>
      {revision.title !== current.title && (
        <p className="q-diff__title">
          Title: <del>{revision.title}</del> <ins>{current.title}</ins>
        </p>
      )}
      {tagsChanged && (
        <p className="q-diff__tags">
          Tags: <del>{revision.tags.join(', ') || 'none'}</del> <ins>{current.tags.join(', ') || 'none'}</ins>
        </p>
      )}
      {rows.every((row) => row.kind === 'same') && (
        <p className="q-diff__none">The blocks are the same as the current version's.</p>
      )}
      <ol className="q-diff__blocks" aria-label="Blocks compared">
        {rows.map((row, i) => (
          <Row key={i} row={row} />
        ))}
      </ol>
    </div>
  );
}
