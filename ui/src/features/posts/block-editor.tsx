import type { ClipboardEvent, ReactNode } from 'react';
import { TextArea, TextInput, Button } from '../../components';
import type { BlockRules } from '../../config/app-config';
import type { BlockType } from './api';
import type { EditorBlock } from './editor-state';
import { linkUrlProblem } from './validation';

/** How each block type is named in the editor. */
export const BLOCK_LABELS: Record<BlockType, string> = {
  heading: 'Heading',
  paragraph: 'Paragraph',
  link: 'Link',
  image: 'Image',
  spotify: 'Spotify',
  tweet: 'Tweet',
};

/** Whether the editor has inputs for `type` (the server's list could name one it does not know yet). */
export function isBlockType(type: string): type is BlockType {
  return Object.hasOwn(BLOCK_LABELS, type);
}

/** The one-line formatting hint under each paragraph. */
export const MARKDOWN_HINT = 'Markdown: **bold**, _italic_, `code`, [link](https://…), - list, > quote, ``` code block';
/** Under an image without alt text: a nudge, not a blocker. */
export const ALT_MISSING = 'No alt text yet: describe the image for readers who cannot see it.';
/** Under an image with alt text. */
export const ALT_HINT = 'Read aloud to readers who cannot see the image.';

/** Placeholder of the spotify block's URL input: a track link. */
export const SPOTIFY_PLACEHOLDER = 'https://open.spotify.com/track/...';
/** Placeholder of the tweet block's URL input: a status link. */
export const TWEET_PLACEHOLDER = 'https://x.com/user/status/...';

export interface BlockEditorProps {
  block: EditorBlock;
  index: number;
  count: number;
  /** The block's validation message, if any. */
  error: string | undefined;
  /** Edit mode: move and remove controls show. */
  editing: boolean;
  onChange: (value: Record<string, string>) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
  /** The server's block rules: they tell which field of a link block its message is about. */
  rules: BlockRules;
  /** A paste into a paragraph (the offer to split it: paste-blocks.tsx). */
  onPaste?: (event: ClipboardEvent<HTMLTextAreaElement>) => void;
  /** Shown under the block's fields (the paste offer). */
  below?: ReactNode;
  /** The post's first block: its field is where the skip link leads, and a heading there is the title, set large. */
  first?: boolean;
}

/** One block of the post: its inputs and, in edit mode, move-up, move-down and remove. */
export function BlockEditor({
  block,
  index,
  count,
  error,
  editing,
  onChange,
  onMove,
  onRemove,
  rules,
  onPaste,
  below,
  first = false,
}: BlockEditorProps) {
  const label = BLOCK_LABELS[block.type];
  return (
    <div
      className={`q-block q-block--${block.type}${error ? ' q-block--invalid' : ''}`}
      role="group"
      aria-label={`Block ${index + 1}: ${label}`}
      data-block-key={block.key}
    >
      {editing && (
        <div className="q-block__controls">
          <Button variant="secondary" data-control="up" disabled={index === 0} onClick={() => onMove(-1)}>
            Move up
          </Button>
          <Button variant="secondary" data-control="down" disabled={index === count - 1} onClick={() => onMove(1)}>
            Move down
          </Button>
          <Button variant="secondary" className="q-block__remove" data-control="remove" onClick={onRemove}>
            Remove
          </Button>
        </div>
      )}
      <BlockFields block={block} error={error} onChange={onChange} rules={rules} onPaste={onPaste} first={first} />
      {below}
    </div>
  );
}

function BlockFields({
  block,
  error,
  onChange,
  rules,
  onPaste,
  first,
}: Pick<BlockEditorProps, 'block' | 'error' | 'onChange' | 'rules' | 'onPaste' | 'first'>) {
  const skip = first ? { 'data-skip-target': '' } : {};
  switch (block.type) {
    case 'heading':
      return (
        <TextInput
          label="Heading"
          className={first ? 'q-block__heading q-block__heading--title' : 'q-block__heading'}
          {...skip}
          value={block.value.text}
          onChange={(text) => onChange({ text })}
          error={error}
        />
      );
    case 'paragraph':
      return (
        <TextArea
          label="Paragraph"
          rows={8}
          grow
          {...skip}
          value={block.value.text}
          onChange={(text) => onChange({ text })}
          onPaste={onPaste}
          error={error}
          hint={MARKDOWN_HINT}
        />
      );
    case 'link': {
      // One message per block; it belongs to the URL unless the URL is fine (then the text is too long).
      const onUrl = error !== undefined && linkUrlProblem(block.value.url, rules) !== null;
      return (
        <div className="q-block__pair">
          <TextInput
            label="URL"
            type="url"
            inputMode="url"
            placeholder="https://"
            value={block.value.url}
            onChange={(url) => onChange({ url })}
            error={onUrl ? error : undefined}
            autoComplete="off"
            spellCheck={false}
          />
          <TextInput
            label="Link Text"
            value={block.value.title}
            onChange={(title) => onChange({ title })}
            error={onUrl ? undefined : error}
          />
        </div>
      );
    }
    case 'image': {
      // One message per block: on the alt text or the caption when it is about them, else on the image.
      const alt = block.value.alt ?? '';
      const caption = block.value.caption ?? '';
      const field = error?.startsWith('The alt text') ? 'alt' : error?.startsWith('The caption') ? 'caption' : 'image';
      const altMissing = alt.trim() === '';
      return (
        <figure className="q-block__image">
          <figcaption className="q-field__label">Image</figcaption>
          {block.value.url ? (
            <img className="q-block__thumbnail" src={block.value.url} alt={altMissing ? 'The uploaded image' : alt} />
          ) : (
            <div className="q-block__thumbnail q-block__thumbnail--empty">No image</div>
          )}
          {error && field === 'image' && (
            <p className="q-field__error" role="alert">
              {error}
            </p>
          )}
          <TextInput
            label="Alt text"
            className={altMissing ? 'q-block__alt q-block__alt--missing' : 'q-block__alt'}
            value={alt}
            onChange={(value) => onChange({ alt: value })}
            error={field === 'alt' ? error : undefined}
            hint={altMissing ? ALT_MISSING : ALT_HINT}
          />
          <TextInput
            label="Caption"
            className="q-block__caption"
            value={caption}
            onChange={(value) => onChange({ caption: value })}
            error={field === 'caption' ? error : undefined}
          />
        </figure>
      );
    }
    case 'spotify':
      return (
        <TextInput
          label="Spotify URL"
          type="url"
          inputMode="url"
          placeholder={SPOTIFY_PLACEHOLDER}
          value={block.value.url}
          onChange={(url) => onChange({ url })}
          error={error}
          autoComplete="off"
          spellCheck={false}
        />
      );
    case 'tweet':
      return (
        <TextInput
          label="Tweet URL"
          type="url"
          inputMode="url"
          placeholder={TWEET_PLACEHOLDER}
          value={block.value.url}
          onChange={(url) => onChange({ url })}
          error={error}
          autoComplete="off"
          spellCheck={false}
        />
      );
  }
}
