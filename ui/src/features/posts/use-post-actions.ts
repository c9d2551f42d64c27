import { useState, type Dispatch, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { PostRules, ScheduleRules } from '../../config/app-config';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { conflictingPost, createPost, deletePost, unpublishPost, updatePost, type Block, type Post } from './api';
import { blocksOf, showsAnnounce, type EditorAction, type EditorState, type OptionErrors } from './editor-state';
import { pageProblem } from './tags';
import { clearLocalDraft } from './local-draft';
import { clearPostDraft } from './post-drafts';
import { checkPublishAt, parseLocalInput } from './schedule';
import type { FocusRequest } from './use-block-focus';
import { bodyProblem, hasErrors, validateBlocks, type BlockErrors } from './validation';

/** Asked before a post is deleted. */
export const DELETE_POST_QUESTION = 'Are you sure you want to delete this post? This cannot be undone.';

/** Asked before a published post is taken back to a draft. */
export const UNPUBLISH_QUESTION =
  'Unpublish this post? It becomes a draft: its page, feeds and search drop it, and fediverse followers are told it was removed.';

export interface PostActionsOptions {
  blogId: number;
  /** The post as loaded; null for a new one. */
  post: Post | null;
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  /** Lets the navigation after a save or delete through the leave-page warning. */
  releaseLeaveWarning: () => void;
  focusBlock: (request: FocusRequest) => void;
  /** An image is uploading: submitting waits for it. */
  blocked: boolean;
  /** The server's tag and page rules, when the page config has them. */
  postRules?: PostRules | null;
  /** The server's scheduling rules; null when the editor does not schedule. */
  scheduleRules?: ScheduleRules | null;
  /** The version an update is based on (docs/edit-conflicts.md); undefined sends none. */
  version?: number;
  /** An update refused because the post was saved elsewhere: the post as it is now. */
  onConflict?: (current: Post) => void;
  /** A save that keeps the editor open ('Save and keep writing', Ctrl/Cmd+S) stored `post`. */
  onKept?: (post: Post) => void;
  /** The post was unpublished: it is a draft now, as `post` says. */
  onUnpublished?: (post: Post) => void;
}

export interface PostActions {
  saving: boolean;
  deleting: boolean;
  unpublishing: boolean;
  /** When the last save that kept the editor open was stored; null before one. */
  savedAt: Date | null;
  /** The message above the blocks: a body problem, the server's refusal not about one block, a failed delete. */
  formError: string | null;
  /** The message under 'Publish at': the time is past, too far ahead, or refused by the server. */
  publishAtError: string | null;
  /** Checks the blocks, then creates or updates the post and shows the list. */
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  /** Saves like the primary button, but stays in the editor ('Save and keep writing', Ctrl/Cmd+S). */
  keepWriting: () => Promise<void>;
  /** Asks, deletes the post and shows the list. */
  remove: () => Promise<void>;
  /** Asks, then takes the published post back to a draft; the editor stays. */
  unpublish: () => Promise<void>;
}

/** The server's refusal split into messages by block index (`children.N`), about the tags and page flag, about the time to publish at, and the rest. */
function serverMessages(error: unknown): {
  blocks: BlockErrors;
  options: OptionErrors;
  publishAt: string | null;
  other: string | null;
} {
  if (!(error instanceof ApiError)) return { blocks: {}, options: {}, publishAt: null, other: errorMessage(error) };
  const blocks: BlockErrors = {};
  const options: OptionErrors = {};
  const other: string[] = [];
  let publishAt: string | null = null;
  for (const [field, messages] of Object.entries(error.fields)) {
    const match = /^children\.(\d+)$/.exec(field);
    if (match) blocks[Number(match[1])] = messages.join('\n');
    else if (field === 'tags' || field.startsWith('tags.')) options.tags = messages.join('\n');
    else if (field === 'page') options.page = messages.join('\n');
    else if (field === 'publishAt') publishAt = messages.join('\n');
    else other.push(...messages);
  }
  if (Object.keys(error.fields).length === 0) other.push(...error.messages);
  return { blocks, options, publishAt, other: other.length > 0 ? other.join('\n') : null };
}

/**
 * The time the save sends: null to publish now (or for a draft, or a published post), else the
 * date input's local time in UTC, or the message when it cannot be scheduled.
 */
function publishTime(state: EditorState, rules: ScheduleRules | null): { at: string | null; error: string | null } {
  if (!rules || state.draft || state.publishedAt !== null || state.publishAt.trim() === '')
    return { at: null, error: null };
  const at = parseLocalInput(state.publishAt);
  const error = checkPublishAt(at, new Date(), rules);
  return error || !at ? { at: null, error } : { at: at.toISOString(), error: null };
}

/**
 * The editor's calls, one at a time: save (ending on the post list, or staying in the editor
 * for 'Save and keep writing' and Ctrl/Cmd+S), unpublish (staying) and delete (ending on the
 * list). A refused call stays on the screen with the server's messages where they belong; the
 * failure is logged too.
 */
export function usePostActions({
  blogId,
  post,
  state,
  dispatch,
  releaseLeaveWarning,
  focusBlock,
  blocked,
  postRules = null,
  scheduleRules = null,
  version,
  onConflict,
  onKept,
  onUnpublished,
}: PostActionsOptions): PostActions {
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [unpublishing, setUnpublishing] = useState(false);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [publishAtError, setPublishAtError] = useState<string | null>(null);
  const busy = saving || deleting || unpublishing;

  /** Leaves the editor for the post list, at its top. */
  const showList = () => {
    releaseLeaveWarning();
    navigate(paths.posts);
    window.scrollTo(0, 0);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await save(false);
  };

  /** Checks and saves; then shows the list, or (`stay`) keeps the editor open on the saved post. */
  const save = async (stay: boolean) => {
    if (busy || blocked) return;
    const blocks = blocksOf(state);
    const errors = validateBlocks(blocks, state.rules);
    const problem = bodyProblem(blocks, state.rules);
    const schedule = publishTime(state, scheduleRules);
    dispatch({ type: 'validate' });
    setFormError(problem);
    const heading = blocks.find((b): b is Extract<Block, { type: 'heading' }> => b.type === 'heading');
    const title = heading?.value.text.trim() ?? '';
    const notPage = state.page && postRules ? pageProblem(title, postRules) : null;
    if (notPage) dispatch({ type: 'optionErrors', errors: { page: notPage } });
    setPublishAtError(schedule.error);
    if (hasErrors(errors) || problem || notPage || schedule.error) {
      const first = state.blocks[Math.min(...Object.keys(errors).map(Number))];
      if (first) focusBlock({ key: first.key });
      return;
    }
    setSaving(true);
    try {
      const input = {
        blocks,
        // Saving to keep writing never publishes: an unpublished post stays a draft (or scheduled).
        draft: state.draft || (stay && state.publishedAt === null && schedule.at === null),
        tags: state.tags,
        page: state.page,
        publishAt: schedule.at,
        visibility: state.page ? ('public' as const) : state.visibility,
        announce: showsAnnounce(state) && state.announce,
        ...(version !== undefined ? { version } : {}),
      };
      const saved =
        state.persisted && post ? await updatePost(blogId, post.shortId, input) : await createPost(blogId, input);
      dispatch({ type: 'saved', post: saved });
      if (!state.persisted) clearLocalDraft();
      else if (post) clearPostDraft(blogId, post.shortId);
      if (!stay) return showList();
      setSaving(false);
      setFormError(null);
      setSavedAt(new Date());
      onKept?.(saved);
    } catch (error) {
      const current = conflictingPost(error);
      if (current && onConflict) {
        // Nothing was saved: the conflict screen shows both versions (the local draft stays).
        setSaving(false);
        onConflict(current);
        return;
      }
      // The screen stays as it is, so nothing typed is lost; the server's messages show where they belong.
      console.error('quire: saving the post failed', error);
      const { blocks: blockErrors, options, publishAt, other } = serverMessages(error);
      dispatch({ type: 'serverErrors', errors: blockErrors });
      dispatch({ type: 'optionErrors', errors: options });
      setPublishAtError(publishAt);
      setFormError(other);
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!post || busy || !window.confirm(DELETE_POST_QUESTION)) return;
    setDeleting(true);
    setFormError(null);
    try {
      await deletePost(blogId, post.shortId);
      showList();
    } catch (error) {
      console.error('quire: deleting the post failed', error);
      setFormError(errorMessage(error));
      setDeleting(false);
    }
  };

  const unpublish = async () => {
    if (!post || busy || !window.confirm(UNPUBLISH_QUESTION)) return;
    setUnpublishing(true);
    setFormError(null);
    try {
      const draft = await unpublishPost(blogId, post.shortId);
      setUnpublishing(false);
      onUnpublished?.(draft);
    } catch (error) {
      console.error('quire: unpublishing the post failed', error);
      setFormError(errorMessage(error));
      setUnpublishing(false);
    }
  };

  return {
    saving,
    deleting,
    unpublishing,
    savedAt,
    formError,
    publishAtError,
    submit,
    keepWriting: () => save(true),
    remove,
    unpublish,
  };
}
