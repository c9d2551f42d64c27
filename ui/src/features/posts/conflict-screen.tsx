import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { Button } from '../../components';
import type { Block } from './api';
import { BLOCK_LABELS } from './block-editor';
import {
  alignBlocks,
  allChoices,
  merge,
  tagsDiffer,
  type Choice,
  type Choices,
  type ConflictRow,
  type ConflictSide,
} from './conflict';

/** The 409's message, shown as the screen's opening line. */
export const CONFLICT_MESSAGE = 'This post was changed in another tab or device since you opened it.';

const CHOICES: readonly { value: Choice; label: string }[] = [
  { value: 'mine', label: 'Mine' },
  { value: 'theirs', label: 'Theirs' },
  { value: 'both', label: 'Both' },
];

/** A block as text: what the blogger compares. */
function BlockText({ block }: { block: Block | null }) {
  if (!block) return <p className="q-conflict__none">(no block here)</p>;
  const value = block.value as Record<string, string>;
  const text =
    block.type === 'heading' || block.type === 'paragraph'
      ? value.text
      : block.type === 'link'
        ? `${value.title ?? ''}\n${value.url ?? ''}`
        : [value.url, value.alt, value.caption].filter(Boolean).join('\n');
  return (
    <div className="q-conflict__block">
      <span className="q-conflict__type">{BLOCK_LABELS[block.type]}</span>
      <p className="q-conflict__text">{text}</p>
    </div>
  );
}

/** The two sides of one part, each named (side by side, stacked on a phone). */
function Pair({ mine, theirs }: { mine: ReactNode; theirs: ReactNode }) {
  return (
    <div className="q-conflict__pair">
      <div className="q-conflict__mine">
        <span className="q-conflict__side">Your version</span>
        {mine}
      </div>
      <div className="q-conflict__theirs">
        <span className="q-conflict__side">The saved version</span>
        {theirs}
      </div>
    </div>
  );
}

/** Mine / Theirs / Both for one differing part. */
function ChoiceGroup({
  name,
  legend,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  value: Choice;
  onChange: (choice: Choice) => void;
}) {
  return (
    <fieldset className="q-conflict__choice">
      <legend>{legend}</legend>
      {CHOICES.map((choice) => (
        <label key={choice.value}>
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
          />{' '}
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}

/** Runs of equal blocks, shown once and collapsed. */
function SameBlocks({ blocks, first }: { blocks: Block[]; first: number }) {
  const label =
    blocks.length === 1
      ? `Block ${first + 1}: the same on both sides`
      : `Blocks ${first + 1}–${first + blocks.length}: the same on both sides`;
  return (
    <details className="q-conflict__same">
      <summary>{label}</summary>
      {blocks.map((block, i) => (
        <BlockText key={i} block={block} />
      ))}
    </details>
  );
}

export interface ConflictScreenProps {
  /** The blogger's version, as in the editor. */
  mine: ConflictSide;
  /** The version saved elsewhere, as the 409 carried it. */
  theirs: ConflictSide;
  /** Saving: the merged post (sent based on the saved version). */
  onSave: (merged: ConflictSide) => void;
  /** Back to the editor, the blogger's text as it was. */
  onCancel: () => void;
  saving?: boolean;
}

/**
 * The conflict screen (docs/edit-conflicts.md): the blogger's version and the saved one side by
 * side (title, tags, each block; equal blocks once, collapsed), with 'Keep mine', 'Take theirs'
 * and a choice per differing part, then Save or Cancel. The merge itself is conflict.ts.
 */
export function ConflictScreen({ mine, theirs, onSave, onCancel, saving = false }: ConflictScreenProps) {
  const rows = useMemo(() => alignBlocks(mine.blocks, theirs.blocks), [mine.blocks, theirs.blocks]);
  const [choices, setChoices] = useState<Choices>(() => allChoices(rows, 'mine'));
  const showTags = tagsDiffer(mine.tags, theirs.tags);
  const title = (side: ConflictSide) => {
    const heading = side.blocks.find((block) => block.type === 'heading');
    return (heading?.value as { text?: string } | undefined)?.text ?? '';
  };
  const choose = (index: number, choice: Choice) =>
    setChoices((now) => ({ ...now, rows: { ...now.rows, [index]: choice } }));

  // Consecutive equal blocks are grouped; each differing row is numbered by its place.
  const groups: { first: number; rows: { row: ConflictRow; index: number }[] }[] = [];
  rows.forEach((row, index) => {
    const last = groups[groups.length - 1];
    if (row.kind === 'same' && last && last.rows[0]?.row.kind === 'same') last.rows.push({ row, index });
    else groups.push({ first: index, rows: [{ row, index }] });
  });

  return (
    <section className="q-conflict" aria-labelledby="q-conflict-title">
      <h2 id="q-conflict-title">This post was changed elsewhere</h2>
      <p role="alert">{CONFLICT_MESSAGE}</p>
      <p>Choose what to keep from your version and from the saved one, then save.</p>
      <div className="q-conflict__all">
        <Button variant="secondary" onClick={() => setChoices(allChoices(rows, 'mine'))}>
          Keep mine
        </Button>
        <Button variant="secondary" onClick={() => setChoices(allChoices(rows, 'theirs'))}>
          Take theirs
        </Button>
      </div>
      <div className="q-conflict__part">
        <h3>Title</h3>
        <Pair mine={<p>{title(mine) || 'Untitled'}</p>} theirs={<p>{title(theirs) || 'Untitled'}</p>} />
      </div>
      {showTags && (
        <div className="q-conflict__part">
          <h3>Tags</h3>
          <Pair mine={<p>{mine.tags.join(', ') || '(none)'}</p>} theirs={<p>{theirs.tags.join(', ') || '(none)'}</p>} />
          <ChoiceGroup
            name="q-conflict-tags"
            legend="Keep for the tags"
            value={choices.tags}
            onChange={(tags) => setChoices((now) => ({ ...now, tags }))}
          />
        </div>
      )}
      {groups.map((group) => {
        const [head] = group.rows;
        if (head?.row.kind === 'same')
          return (
            <SameBlocks
              key={`same-${group.first}`}
              first={group.first}
              blocks={group.rows.map(({ row }) => (row as { block: Block }).block)}
            />
          );
        return (
          <Fragment key={`row-${group.first}`}>
            {group.rows.map(({ row, index }) =>
              row.kind === 'differs' ? (
                <div className="q-conflict__part" key={index}>
                  <h3>Block {index + 1}</h3>
                  <Pair mine={<BlockText block={row.mine} />} theirs={<BlockText block={row.theirs} />} />
                  <ChoiceGroup
                    name={`q-conflict-${index}`}
                    legend={`Keep for block ${index + 1}`}
                    value={choices.rows[index] ?? 'mine'}
                    onChange={(choice) => choose(index, choice)}
                  />
                </div>
              ) : null,
            )}
          </Fragment>
        );
      })}
      <div className="q-conflict__actions">
        <Button onClick={() => onSave(merge(rows, choices, mine, theirs))} disabled={saving}>
          Save
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
