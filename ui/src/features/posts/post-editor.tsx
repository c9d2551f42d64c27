import { Fragment, useEffect, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components';
import type { AppConfig, BlockRules } from '../../config/app-config';
import { useLeaveWarning } from '../../lib/use-leave-warning';
import type { BlockType, Post } from './api';
import { AddBlockModal } from './add-block-modal';
import { BlockEditor } from './block-editor';
import { EditorToolbar } from './editor-toolbar';
import {
  blocksOf,
  canInsert,
  contentOf,
  editorReducer,
  emptyBlock,
  existingPostState,
  isDirty,
  newPostState,
  type EditorState,
} from './editor-state';
import { loadLocalDraft, saveLocalDraft } from './local-draft';
import { PasteOfferPanel, usePasteBlocks } from './paste-blocks';
import { PostPreview, usePreview } from './post-preview';
import { UploadStatus } from './upload-status';
import { PageToggle, TagField } from './tag-field';
import { PostSettings } from './post-settings';
import { VisibilityField } from './visibility-field';
import { useBlockFocus } from './use-block-focus';
import { useImageUpload } from './use-image-upload';
import { PreviewLinkControl } from './preview-link';
import { ScheduleField } from './schedule-field';
import { usePostActions } from './use-post-actions';
import { CommentsSwitch } from '../responses';
import { validationRules } from './validation';
import { ConflictScreen } from './conflict-screen';
import { DraftOffer } from './draft-offer';
import { usePostDraft } from './use-post-draft';
import { HistoryPanel } from './history';
import { paths } from '../../config/paths';

/** Asked before a block is removed: a removed block cannot be brought back. */
export const REMOVE_BLOCK_QUESTION = 'Are you sure you want to remove this block?';

export interface PostEditorProps {
  blogId: number;
  /** The post to edit; null for a new one. */
  post: Post | null;
  /**
   * The image host's client ID and the server's block rules (without them the editor does not
   * start); its tag and page rules; its scheduling rules (without them the editor only publishes now).
   */
  config: Pick<AppConfig, 'imgurClientId' | 'blockRules'> & Partial<Pick<AppConfig, 'postRules' | 'scheduleRules'>>;
  /** A restore from the History replaced the post: show it (docs/revisions.md). */
  onReplaced?: (post: Post) => void;
  /** The blog's theme name: the title and paragraphs are set in its type. */
  theme?: string;
}

function initialState(post: Post | null, rules: BlockRules): EditorState {
  return post ? existingPostState(post, rules) : newPostState(rules, loadLocalDraft());
}

/**
 * The post editor, for new posts and existing ones alike (ui/README.md, 'Posts'). The
 * state and its rules are in editor-state.ts; the image upload, the focus, and saving and
 * deleting are hooks of their own; this component wires them to the screen and the local draft.
 */
export function PostEditor({ blogId, post: loaded, config, onReplaced, theme }: PostEditorProps) {
  // The post as last saved here: a new post saved with 'Save and keep writing' becomes this one.
  const [post, setPost] = useState(loaded);
  const [historyOpen, setHistoryOpen] = useState(false);
  const rules = validationRules(config);
  const [state, dispatch] = useReducer(editorReducer, null, () => initialState(post, rules));
  const [addAt, setAddAt] = useState<number | null>(null);
  // Edit conflicts (docs/edit-conflicts.md): the version saves are based on, the post saved elsewhere.
  const [version, setVersion] = useState(post?.version);
  const [conflict, setConflict] = useState<Post | null>(null);
  const [saveMerged, setSaveMerged] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const focusBlock = useBlockFocus(listRef);
  const leave = useLeaveWarning(isDirty(state));
  const images = useImageUpload(rules, config, (index, link) =>
    // Blocks may have been removed meanwhile: never insert past the end.
    dispatch({
      type: 'insert',
      index: Math.min(index, state.blocks.length),
      block: { type: 'image', value: { url: link, alt: '', caption: '' } },
    }),
  );
  const actions = usePostActions({
    blogId,
    post,
    state,
    dispatch,
    releaseLeaveWarning: leave.release,
    focusBlock,
    blocked: images.uploading,
    postRules: config.postRules ?? null,
    scheduleRules: config.scheduleRules ?? null,
    version,
    onConflict: setConflict,
    onKept: (saved) => {
      setVersion(saved.version);
      if (!post) {
        // The new post now has its edit address: a reload or a shared tab opens it there.
        window.history.replaceState(window.history.state, '', paths.editPost(saved.shortId));
      }
      setPost(saved);
    },
    onUnpublished: (draft) => {
      setVersion(draft.version);
      setPost(draft);
      dispatch({ type: 'unpublished', post: draft });
    },
  });
  const localDraft = usePostDraft(blogId, post, state, dispatch, version, setVersion);

  // The merge is in the state once rendered: then it is saved like any edit.
  useEffect(() => {
    if (!saveMerged) return;
    setSaveMerged(false);
    formRef.current?.requestSubmit();
  }, [saveMerged]);
  const unpublished = state.publishedAt === null;

  const preview = usePreview(blogId, (errors) => dispatch({ type: 'serverErrors', errors }));
  const paste = usePasteBlocks(blogId, state, dispatch, focusBlock);

  // Every change to a new post's blocks or draft flag goes to the local draft.
  useEffect(() => {
    if (state.persisted || state.revision === 0) return;
    saveLocalDraft(contentOf(state));
  }, [state.revision]);

  const chooseBlock = (type: Exclude<BlockType, 'image'>) => {
    if (addAt === null) return;
    dispatch({ type: 'insert', index: addAt, block: emptyBlock(type) });
    focusBlock({ key: `b${state.nextKey}` }); // the key the reducer gives the new block
    setAddAt(null);
  };

  const chooseImage = (file: File) => {
    if (addAt === null) return;
    setAddAt(null);
    images.start(file, addAt);
  };

  const move = (index: number, direction: -1 | 1) => {
    const block = state.blocks[index];
    dispatch({ type: 'swap', from: index, to: index + direction });
    if (block) focusBlock({ key: block.key, control: direction === -1 ? 'up' : 'down' });
  };

  const remove = (index: number) => {
    if (!window.confirm(REMOVE_BLOCK_QUESTION)) return;
    // The focus goes to the block that takes its place (or the one before the last).
    const neighbour = state.blocks[index + 1] ?? state.blocks[index - 1];
    dispatch({ type: 'remove', index });
    if (neighbour) focusBlock({ key: neighbour.key });
    else window.setTimeout(() => listRef.current?.querySelector<HTMLElement>('.q-post-editor__add-button')?.focus());
  };

  // Ctrl/Cmd+S saves and stays; Alt+Enter in a block (edit mode) adds one after it.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void actions.keepWriting();
      return;
    }
    if (event.altKey && event.key === 'Enter' && state.editing && canInsert(state)) {
      const key = (event.target as HTMLElement).closest<HTMLElement>('[data-block-key]')?.dataset.blockKey;
      const index = state.blocks.findIndex((block) => block.key === key);
      if (index === -1) return;
      event.preventDefault();
      setAddAt(index + 1);
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

  const { upload } = images;
  const uploadStatus = (index: number) =>
    upload.status !== 'idle' && upload.index === index && <UploadStatus upload={upload} onDismiss={images.dismiss} />;

  if (conflict)
    return (
      <ConflictScreen
        mine={{ blocks: blocksOf(state), tags: state.tags }}
        theirs={{ blocks: conflict.body.children, tags: conflict.tags ?? [] }}
        onCancel={() => setConflict(null)}
        onSave={(merged) => {
          dispatch({ type: 'restore', content: { ...merged, draft: state.draft } });
          setVersion(conflict.version);
          setConflict(null);
          setSaveMerged(true);
        }}
      />
    );

  const published = state.persisted && post !== null && state.publishedAt !== null;
  return (
    <form
      ref={formRef}
      className="q-post-editor"
      data-theme={theme?.toLowerCase()}
      onSubmit={actions.submit}
      onKeyDown={onKeyDown}
      noValidate
      aria-busy={actions.saving || actions.deleting || actions.unpublishing || undefined}
    >
      <EditorToolbar
        state={state}
        onToggleEditing={() => dispatch({ type: 'toggleEditing' })}
        saving={actions.saving}
        busy={actions.deleting || actions.unpublishing}
        uploading={images.uploading}
        previewing={preview.showing}
        onTogglePreview={() => preview.toggle(blocksOf(state))}
        onKeepWriting={() => void actions.keepWriting()}
        savedAt={actions.savedAt}
        onHistory={state.persisted && post && onReplaced ? () => setHistoryOpen(true) : undefined}
        onUnpublish={published ? () => void actions.unpublish() : undefined}
        onDelete={state.persisted && post ? () => void actions.remove() : undefined}
      />
      {post && onReplaced && (
        <HistoryPanel
          blogId={blogId}
          post={post}
          open={historyOpen}
          onClose={() => setHistoryOpen(false)}
          onRestored={(restored) => {
            setHistoryOpen(false);
            leave.release();
            onReplaced(restored);
          }}
        />
      )}
      {localDraft.offer && (
        <DraftOffer savedAt={localDraft.offer.savedAt} onRestore={localDraft.restore} onDiscard={localDraft.discard} />
      )}
      {actions.formError && (
        <p className="q-post-editor__error" role="alert">
          {actions.formError}
        </p>
      )}
      {preview.state.status === 'failed' && (
        <p className="q-post-editor__error" role="alert">
          {preview.state.message}
        </p>
      )}
      <div className="q-post-editor__body">
        <div className="q-post-editor__text">
          <PostPreview state={preview.state} />
          <div className="q-post-editor__blocks" ref={listRef} hidden={preview.showing}>
            {state.editing && (
              <p className="q-post-editor__shortcut">
                <kbd>Alt</kbd>+<kbd>Enter</kbd> in a block adds a block after it.
              </p>
            )}
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
                  rules={rules}
                  first={index === 0}
                  onPaste={(event) => paste.onPaste(block.key, event)}
                  below={
                    paste.offer?.key === block.key && (
                      <PasteOfferPanel
                        offer={paste.offer}
                        fits={paste.fits(paste.offer)}
                        maxBlocks={rules.maxBlocks}
                        onSplit={paste.split}
                        onKeep={paste.keep}
                      />
                    )
                  }
                />
              </Fragment>
            ))}
            {addButton(state.blocks.length)}
            {upload.status !== 'idle' && upload.index >= state.blocks.length && (
              <UploadStatus upload={upload} onDismiss={images.dismiss} />
            )}
            {state.blocks.length === 0 && !state.editing && (
              <p className="q-post-editor__empty">This post has no blocks. Add one with 'Edit blocks'.</p>
            )}
          </div>
        </div>
        <PostSettings state={state} onDraftChange={(draft) => dispatch({ type: 'setDraft', draft })}>
          <VisibilityField
            state={state}
            onVisibilityChange={(visibility) => dispatch({ type: 'setVisibility', visibility })}
            onAnnounceChange={(announce) => dispatch({ type: 'setAnnounce', announce })}
          />
          {unpublished && (config.scheduleRules || (state.persisted && post)) && (
            <div className="q-post-editor__publishing">
              {config.scheduleRules && (
                <ScheduleField
                  value={state.publishAt}
                  onChange={(publishAt) => dispatch({ type: 'setPublishAt', publishAt })}
                  disabled={state.draft}
                  error={actions.publishAtError}
                />
              )}
              {state.persisted && post && <PreviewLinkControl blogId={blogId} shortId={post.shortId} />}
            </div>
          )}
          <div className="q-post-editor__options">
            <TagField
              blogId={blogId}
              tags={state.tags}
              onChange={(tags) => dispatch({ type: 'setTags', tags })}
              error={state.optionErrors.tags}
              rules={config.postRules ?? null}
            />
            <PageToggle
              page={state.page}
              onChange={(page) => dispatch({ type: 'setPage', page })}
              error={state.optionErrors.page}
            />
            {state.persisted && post && !post.page && (
              <CommentsSwitch blogId={blogId} postId={post.shortId} closed={post.commentsClosed ?? false} />
            )}
          </div>
        </PostSettings>
      </div>
      <AddBlockModal
        open={addAt !== null}
        onClose={() => setAddAt(null)}
        onChoose={chooseBlock}
        onImage={chooseImage}
        imageDisabled={images.uploading}
        rules={rules}
      />
    </form>
  );
}
