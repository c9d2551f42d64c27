import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, injectConfig, json } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';
import { postDraftKey } from './post-drafts';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));
beforeEach(() => localStorage.clear());

const POSTS = '/api/my/blogs/7/posts';
const para = (text: string) => ({ type: 'paragraph' as const, value: { text } });
const heading = (text: string) => ({ type: 'heading' as const, value: { text } });
const mine = samplePost(1, {
  title: 'Notes',
  version: 4,
  body: { type: 'root', children: [heading('Notes'), para('Opened here')] },
});
const theirs = {
  ...mine,
  version: 5,
  body: { type: 'root' as const, children: [heading('Notes'), para('Saved elsewhere')] },
};
const STALE = 'This post was changed in another tab or device since you opened it.';
const paragraph = () =>
  within(screen.getByRole('group', { name: 'Block 2: Paragraph' })).getByRole('textbox', { name: 'Paragraph' });

describe('an edit conflict', () => {
  it('sends the version, shows both sides on a 409, keeps my text on Cancel and saves the merge on the newer version', async () => {
    const server = postsServer([mine]);
    let puts = 0;
    const api = fakeApi({
      ...server.handlers,
      [`PUT ${POSTS}/${mine.shortId}`]: (request) => {
        puts += 1;
        if ((request.body as { version?: number }).version === 4)
          return json({ errors: [{ version: STALE }], post: theirs }, 409);
        return json({ post: { ...theirs, version: 6 } });
      },
    });
    const { user, history } = renderRoute(`/d/posts/${mine.shortId}/edit`);
    await user.clear(await waitFor(paragraph));
    await user.type(paragraph(), 'Typed here');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const region = await screen.findByRole('region', { name: 'This post was changed elsewhere' });
    expect(within(region).getByText(STALE)).toBeInTheDocument();
    expect(within(region).getByText('Typed here')).toBeInTheDocument();
    expect(within(region).getByText('Saved elsewhere')).toBeInTheDocument();
    expect(within(region).getByText('Block 1: the same on both sides')).toBeInTheDocument();
    expect((api.sent('PUT', `${POSTS}/${mine.shortId}`)[0]?.body as { version: number }).version).toBe(4);

    await user.click(within(region).getByRole('button', { name: 'Cancel' }));
    expect(paragraph()).toHaveValue('Typed here');
    expect(history.location.pathname).toBe(`/d/posts/${mine.shortId}/edit`);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('region', { name: 'This post was changed elsewhere' });
    await user.click(
      within(within(again).getByRole('group', { name: 'Keep for block 2' })).getByRole('radio', { name: 'Both' }),
    );
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    const last = api.sent('PUT', `${POSTS}/${mine.shortId}`).at(-1)?.body as { version: number; body: unknown };
    expect(puts).toBe(3);
    expect(last.version).toBe(5);
    expect(last.body).toEqual({
      type: 'root',
      children: [heading('Notes'), para('Typed here'), para('Saved elsewhere')],
    });
  });
});

describe('the local draft of an existing post', () => {
  it('is written as the blogger types, with the version it was based on', async () => {
    fakeApi(postsServer([mine]).handlers);
    const { user } = renderRoute(`/d/posts/${mine.shortId}/edit`);
    await user.type(await waitFor(paragraph), ' and more');
    await waitFor(() => expect(localStorage.getItem(postDraftKey(7, mine.shortId))).not.toBeNull(), { timeout: 3000 });
    const stored = JSON.parse(localStorage.getItem(postDraftKey(7, mine.shortId)) ?? 'null');
    expect(stored.blocks[1]).toEqual(para('Opened here and more'));
    expect(stored.version).toBe(4);
    expect(typeof stored.savedAt).toBe('number');
  });

  it("is offered when the editor opens: 'Restore' puts it back, 'Discard' forgets it", async () => {
    const draft = {
      blocks: [heading('Notes'), para('From the crash')],
      draft: false,
      tags: [],
      page: false,
      version: 4,
      savedAt: Date.now(),
    };
    localStorage.setItem(postDraftKey(7, mine.shortId), JSON.stringify(draft));
    fakeApi(postsServer([mine]).handlers);
    const first = renderRoute(`/d/posts/${mine.shortId}/edit`);
    expect(await screen.findByText(/You have unsaved changes from/)).toBeInTheDocument();
    expect(paragraph()).toHaveValue('Opened here');
    await first.user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(paragraph()).toHaveValue('From the crash');
    expect(screen.queryByText(/You have unsaved changes from/)).toBeNull();
    first.unmount();

    localStorage.setItem(postDraftKey(7, mine.shortId), JSON.stringify(draft));
    const second = renderRoute(`/d/posts/${mine.shortId}/edit`);
    await second.user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(paragraph()).toHaveValue('Opened here');
    expect(localStorage.getItem(postDraftKey(7, mine.shortId))).toBeNull();
  });
});
