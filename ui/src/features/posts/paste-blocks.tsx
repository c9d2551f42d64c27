// Pasting Markdown or HTML that holds several blocks into a paragraph (issue 33). The paste
// happens as usual; when the server's converter (POST /api/my/blogs/{id}/convert, the import's
// own, so the rules are the same) makes more than one block of it, an offer under the paragraph
// asks whether to split it: "Split into N blocks" replaces the paragraph with the text before
// the paste, the blocks, and the text after it, and moves the focus into the first new block;
// "Keep as one paragraph" (or Escape) leaves the paste as it is. A one-line paste just pastes.
import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Button } from '../../components';
import { convertPaste, type Block, type Pasted } from './api';
import type { EditorAction, EditorState } from './editor-state';
import type { FocusRequest } from './use-block-focus';
import './paste-blocks.css';

/** A converted paste waiting for the owner's choice. */
export interface PasteOffer {
  /** The paragraph's key. */
  key: string;
  /** The paragraph's text before and after the pasted text. */
  before: string;
  after: string;
  blocks: Block[];
  notes: string[];
}

/** Tags of HTML that hold blocks (a clipboard's HTML of plain text holds none of them). */
const BLOCK_TAGS = /<(h[1-6]|p|ul|ol|li|blockquote|pre|img|figure|hr)[\s>/]/i;

/** What to send for a paste, or null when it cannot hold more than one block (one line of text). */
export function pastedContent(text: string, html: string): Pasted | null {
  if (BLOCK_TAGS.test(html)) return { html };
  return text.trim().includes('\n') ? { markdown: text } : null;
}

/** The blocks that replace the paragraph: its text before the paste, the blocks, its text after. */
export function replacement(offer: PasteOffer): Block[] {
  const paragraph = (text: string): Block[] =>
    text.trim() ? [{ type: 'paragraph', value: { text: text.trim() } }] : [];
  return [...paragraph(offer.before), ...offer.blocks, ...paragraph(offer.after)];
}

/**
 * The paste offer of the editor's paragraphs: `onPaste` for a paragraph's text area, the offer
 * (if any) with its key, and the two choices.
 */
export function usePasteBlocks(
  blogId: number,
  state: Pick<EditorState, 'blocks' | 'nextKey' | 'rules'>,
  dispatch: (action: EditorAction) => void,
  focusBlock: (request: FocusRequest) => void,
) {
  const [offer, setOffer] = useState<PasteOffer | null>(null);
  const request = useRef<AbortController | null>(null);

  const onPaste = (key: string, event: ClipboardEvent<HTMLTextAreaElement>) => {
    const area = event.currentTarget;
    const pasted = pastedContent(event.clipboardData.getData('text/plain'), event.clipboardData.getData('text/html'));
    request.current?.abort();
    setOffer(null);
    if (!pasted) return;
    const before = area.value.slice(0, area.selectionStart);
    const after = area.value.slice(area.selectionEnd);
    const controller = new AbortController();
    request.current = controller;
    convertPaste(blogId, pasted, controller.signal)
      .then(({ blocks, notes }) => {
        if (!controller.signal.aborted && blocks.length > 1) setOffer({ key, before, after, blocks, notes });
      })
      // The paste is already in the paragraph: a conversion that fails leaves it there.
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('quire: the paste could not be converted', error);
      });
  };

  const keep = () => {
    if (offer) focusBlock({ key: offer.key }); // back to the paragraph, not to the page's body
    setOffer(null);
  };

  const split = () => {
    if (!offer) return;
    setOffer(null);
    const index = state.blocks.findIndex((block) => block.key === offer.key);
    const blocks = replacement(offer);
    if (index < 0 || state.blocks.length - 1 + blocks.length > state.rules.maxBlocks) return;
    dispatch({ type: 'remove', index });
    blocks.forEach((block, n) => dispatch({ type: 'insert', index: index + n, block }));
    // The keys the reducer gives the inserted blocks, in order; the first new one is after the text before.
    focusBlock({ key: `b${state.nextKey + (offer.before.trim() ? 1 : 0)}` });
  };

  const fits = (candidate: PasteOffer) =>
    state.blocks.length - 1 + replacement(candidate).length <= state.rules.maxBlocks;

  return { offer, onPaste, split, keep, fits };
}

/** The offer under a paragraph: split the paste into its blocks, or keep it as it is. */
export function PasteOfferPanel({
  offer,
  fits,
  maxBlocks,
  onSplit,
  onKeep,
}: {
  offer: PasteOffer;
  fits: boolean;
  maxBlocks: number;
  onSplit: () => void;
  onKeep: () => void;
}) {
  const count = offer.blocks.length;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onKeep();
  };
  return (
    <div className="q-paste-offer" role="group" aria-label="Pasted text" onKeyDown={onKeyDown}>
      <p className="q-paste-offer__text" role="status">
        {fits
          ? `The pasted text holds ${count} blocks.`
          : `The pasted text holds ${count} blocks: too many, a post has at most ${maxBlocks}.`}
      </p>
      {offer.notes.length > 0 && (
        <ul className="q-paste-offer__notes">
          {offer.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      <div className="q-paste-offer__actions">
        <Button onClick={onSplit} disabled={!fits}>
          Split into {count} blocks
        </Button>
        <Button variant="secondary" onClick={onKeep}>
          Keep as one paragraph
        </Button>
      </div>
    </div>
  );
}
