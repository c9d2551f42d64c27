import { Fragment, useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Checkbox, Spinner } from '../../components';
import type { AppConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { useLeaveWarning } from '../../lib/use-leave-warning';
import { createPost, deletePost, updatePost, uploadImage, type BlockType, type Post } from './api';
import { AddBlockModal, IMAGE_TYPES } from './add-block-modal';
import { BlockEditor } from './block-editor';
import {
  blocksOf,
  canInsert,
  contentOf,
  editorReducer,
  emptyBlock,
  existingPostState,
  isDirty,
  newPostState,
  primaryLabel,
  showsDraftCheckbox,
  type EditorState,
} from './editor-state';
import { clearLocalDraft, loadLocalDraft, saveLocalDraft } from './local-draft';
import { bodyProblem, hasErrors, validateBlocks, validationRules, type BlockErrors } from './validation';

/** Asked before a block is removed (SPEC §4). */
export const REMOVE_BLOCK_QUESTION = 'Are you sure you want to remove this block?';
/** Asked before a post is deleted. */
export const DELETE_POST_QUESTION = 'Are you sure you want to delete this post? This cannot be undone.';
/** Largest image upload, as the server caps it. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export interface PostEditorProps {
  blogId: number;
  /** The post to edit; null for a new one. */
  post: Post | null;
  config: Pick<AppConfig, 'appUrl' | 'imgurClientId'>;
}

type Upload =
  | { status: 'idle' }
  | { status: 'uploading'; index: number; name: string }
  | { status: 'failed'; index: number; message: string };

/** Where to put the keyboard focus after a change: a block's first field or one of its controls. */
interface FocusRequest {
  key: string;
  control?: 'up' | 'down';
}

/** The server's refusal split into messages by block index (`children.N`) and the rest. */
export function serverMessages(error: unknown): { blocks: BlockErrors; other: string | null } {
  if (!(error instanceof ApiError))
    return { blocks: {}, other: error instanceof Error ? error.message : String(error) };
  const blocks: BlockErrors = {};
  const other: string[] = [];
  for (const [field, messages] of Object.entries(error.fields)) {
    const match = /^children\.(\d+)$/.exec(field);
    if (match) blocks[Number(match[1])] = messages.join('\n');
    else other.push(...messages);
  }
  if (Object.keys(error.fields).length === 0) other.push(...error.messages);
  return { blocks, other: other.length > 0 ? other.join('\n') : null };
}

function initialState(post: Post | null, config: PostEditorProps['config']): EditorState {
  const rules = validationRules(config);
  return post ? existingPostState(post, rules) : newPostState(rules, loadLocalDraft());
}

/**
 * The post editor (SPEC §2 "Post editor", §4, §5), for new posts and existing ones alike. The
 * state and its rules are in editor-state.ts; this component wires them to the screen, the
 * server, the local draft and the leave-page warning.
 */
export function PostEditor({ blogId, post, config }: PostEditorProps) {
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(editorReducer, null, () => initialState(post, config));
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [addAt, setAddAt] = useState<number | null>(null);
  const [upload, setUpload] = useState<Upload>({ status: 'idle' });
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const leave = useLeaveWarning(isDirty(state));
  // The latest state, for an upload's continuation, which outlives the render that started it.
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });

  // Every change to a new post's blocks or draft flag goes to the local draft.
  useEffect(() => {
    if (state.persisted || state.revision === 0) return;
    saveLocalDraft(contentOf(state));
  }, [state.revision]);

  // Runs after the dialog gave focus back to its opener, so the new target wins.
  useEffect(() => {
    if (!focus) return;
    const block = listRef.current?.querySelector<HTMLElement>(`[data-block-key="${focus.key}"]`);
    if (!block) return;
    const control = (name: string) =>
      block.querySelector<HTMLButtonElement>(`button[data-control="${name}"]:not(:disabled)`);
    const target = focus.control
      ? (control(focus.control) ?? control(focus.control === 'up' ? 'down' : 'up'))
      : block.querySelector<HTMLElement>('input, textarea');
    target?.focus();
  }, [focus]);

  const busy = saving || deleting;
  const uploading = upload.status === 'uploading';

  const chooseBlock = (type: Exclude<BlockType, 'image'>) => {
    if (addAt === null) return;
    dispatch({ type: 'insert', index: addAt, block: emptyBlock(type) });
    setFocus({ key: `b${state.nextKey}` }); // the key the reducer gives the new block
    setAddAt(null);
  };

  const chooseImage = async (file: File) => {
    if (addAt === null) return;
    const index = addAt;
    setAddAt(null);
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setUpload({ status: 'failed', index, message: 'Only JPEG, PNG and GIF images can be uploaded' });
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      setUpload({ status: 'failed', index, message: 'Images can be at most 10 MB' });
      return;
    }
    setUpload({ status: 'uploading', index, name: file.name });
    try {
      const link = await uploadImage(file, config);
      setUpload({ status: 'idle' });
      // Blocks may have been removed meanwhile: never insert past the end.
      dispatch({
        type: 'insert',
        index: Math.min(index, stateRef.current.blocks.length),
        block: { type: 'image', value: { url: link } },
      });
    } catch (error) {
      console.error('quire: image upload failed', error);
      setUpload({ status: 'failed', index, message: error instanceof Error ? error.message : String(error) });
    }
  };

  const move = (index: number, direction: -1 | 1) => {
    const block = state.blocks[index];
    dispatch({ type: 'swap', from: index, to: index + direction });
    if (block) setFocus({ key: block.key, control: direction === -1 ? 'up' : 'down' });
  };

  const remove = (index: number) => {
    if (!window.confirm(REMOVE_BLOCK_QUESTION)) return;
    dispatch({ type: 'remove', index });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || uploading) return;
    const blocks = blocksOf(state);
    const errors = validateBlocks(blocks, state.rules);
    const problem = bodyProblem(blocks);
    dispatch({ type: 'validate' });
    setFormError(problem);
    if (hasErrors(errors) || problem) {
      const first = state.blocks[Math.min(...Object.keys(errors).map(Number))];
      if (first) setFocus({ key: first.key });
      return;
    }
    setSaving(true);
    try {
      const input = { blocks, draft: state.draft };
      const saved =
        state.persisted && post ? await updatePost(blogId, post.shortId, input) : await createPost(blogId, input);
      dispatch({ type: 'saved', post: saved });
      if (!state.persisted) clearLocalDraft();
      leave.release();
      navigate(paths.posts);
      window.scrollTo(0, 0);
    } catch (error) {
      // The screen stays as it is (SPEC §8); the server's messages show where they belong.
      console.error('quire: saving the post failed', error);
      const { blocks: blockErrors, other } = serverMessages(error);
      dispatch({ type: 'serverErrors', errors: blockErrors });
      setFormError(other);
      setSaving(false);
    }
  };

  const removePost = async () => {
    if (!post || busy || !window.confirm(DELETE_POST_QUESTION)) return;
    setDeleting(true);
    setFormError(null);
    try {
      await deletePost(blogId, post.shortId);
      leave.release();
      navigate(paths.posts);
      window.scrollTo(0, 0);
    } catch (error) {
      console.error('quire: deleting the post failed', error);
      setFormError(error instanceof Error ? error.message : String(error));
      setDeleting(false);
    }
  };

  const addButton = (index: number) =>
    state.editing && (
      <div className="q-post-editor__add">
        <Button
          variant="secondary"
          className="q-post-editor__add-button"
          disabled={!canInsert(state)}
          aria-label={index === state.blocks.length ? 'Add block at the end' : `Add block before block ${index + 1}`}
          onClick={() => setAddAt(index)}
        >
          + Add block
        </Button>
      </div>
    );

  const uploadStatus = (index: number) => {
    if (upload.status === 'idle' || upload.index !== index) return null;
    if (upload.status === 'uploading') {
      return (
        <div className="q-post-editor__upload" role="status">
          <Spinner /> Uploading {upload.name}…
        </div>
      );
    }
    return (
      <div className="q-post-editor__upload q-post-editor__upload--failed" role="alert">
        <span>The image could not be uploaded: {upload.message}</span>
        <Button variant="link" onClick={() => setUpload({ status: 'idle' })}>
          Dismiss
        </Button>
      </div>
    );
  };

  return (
    <form className="q-post-editor" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      <div className="q-post-editor__toolbar">
        <Button variant="secondary" aria-pressed={state.editing} onClick={() => dispatch({ type: 'toggleEditing' })}>
          Edit blocks
        </Button>
        {showsDraftCheckbox(state) && (
          <Checkbox
            label="Mark as draft"
            checked={state.draft}
            onChange={(draft) => dispatch({ type: 'setDraft', draft })}
            className="q-post-editor__draft"
          />
        )}
        <span className="q-post-editor__spacer" />
        {state.persisted && post && (
          <Button variant="danger" loading={deleting} disabled={saving} onClick={removePost}>
            Delete
          </Button>
        )}
        <Button type="submit" loading={saving} disabled={deleting || uploading}>
          {primaryLabel(state)}
        </Button>
      </div>
      {formError && (
        <p className="q-post-editor__error" role="alert">
          {formError}
        </p>
      )}
      <div className="q-post-editor__blocks" ref={listRef}>
        {state.blocks.map((block, index) => (
          <Fragment key={block.key}>
            {addButton(index)}
            {uploadStatus(index)}
            <BlockEditor
              block={block}
              index={index}
              count={state.blocks.length}
              error={state.errors[index]}
              editing={state.editing}
              onChange={(value) => dispatch({ type: 'edit', index, value })}
              onMove={(direction) => move(index, direction)}
              onRemove={() => remove(index)}
            />
          </Fragment>
        ))}
        {addButton(state.blocks.length)}
        {upload.status !== 'idle' && upload.index >= state.blocks.length && uploadStatus(upload.index)}
        {state.blocks.length === 0 && !state.editing && (
          <p className="q-post-editor__empty">This post has no blocks. Add one with 'Edit blocks'.</p>
        )}
      </div>
      <AddBlockModal
        open={addAt !== null}
        onClose={() => setAddAt(null)}
        onChoose={chooseBlock}
        onImage={(file) => void chooseImage(file)}
        imageDisabled={uploading}
      />
    </form>
  );
}
