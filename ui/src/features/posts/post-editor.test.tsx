import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureRules } from '../../test/block-rules-fixture';
import { alice, errors, fakeApi, injectConfig, json } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute, renderRoutes } from '../../test/render-route';
import { PostEditor } from './post-editor';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));

const POSTS = '/api/my/blogs/7/posts';
let scrollTo: ReturnType<typeof vi.fn>;
beforeEach(() => {
  localStorage.clear();
  scrollTo = vi.fn();
  vi.stubGlobal('scrollTo', scrollTo);
});

const block = (n: number) => screen.getByRole('group', { name: new RegExp(`^Block ${n}: `) });
const blockNames = () =>
  screen.queryAllByRole('group', { name: /^Block \d+: / }).map((g) => g.getAttribute('aria-label'));
const button = (name: string) => screen.getByRole('button', { name });
const storedDraft = () => JSON.parse(localStorage.getItem('new') ?? 'null') as unknown;
const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'dot.png', { type: 'image/png' });

async function openNew() {
  const rendered = renderRoute('/d/posts/new');
  await screen.findByRole('heading', { level: 1, name: 'New Post' });
  return rendered;
}

describe('new post', () => {
  it("starts with an empty heading and an empty paragraph, 'Mark as draft' off and 'Publish'", async () => {
    fakeApi(postsServer().handlers);
    const { user } = await openNew();
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph']);
    expect(within(block(1)).getByRole('textbox', { name: 'Heading' })).toHaveValue('');
    const paragraph = within(block(2)).getByRole('textbox', { name: 'Paragraph' });
    expect(paragraph).toHaveValue('');
    expect(paragraph).toHaveAttribute('rows', '8');
    expect(screen.getByRole('checkbox', { name: 'Mark as draft' })).not.toBeChecked();
    expect(button('Publish')).toHaveAttribute('type', 'submit');
    expect(screen.queryByRole('button', { name: /^Add block/ })).toBeNull();
    await user.click(button('More'));
    expect(screen.getAllByRole('button', { name: 'Save and keep writing' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it("labels the button 'Save as Draft' while 'Mark as draft' is on, and keeps each change in the local draft", async () => {
    fakeApi(postsServer().handlers);
    const { user } = await openNew();
    expect(localStorage.getItem('new')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Mark as draft' }));
    expect(button('Save as Draft')).toBeInTheDocument();
    expect(storedDraft()).toEqual({
      blocks: [
        { type: 'heading', value: { text: '' } },
        { type: 'paragraph', value: { text: '' } },
      ],
      draft: true,
    });
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Hi');
    expect(storedDraft()).toEqual({
      blocks: [
        { type: 'heading', value: { text: 'Hi' } },
        { type: 'paragraph', value: { text: '' } },
      ],
      draft: true,
    });
  });

  it('restores the local draft when opened', async () => {
    localStorage.setItem(
      'new',
      JSON.stringify({ blocks: [{ type: 'tweet', value: { url: 'https://x.com/a/status/1' } }], draft: true }),
    );
    fakeApi(postsServer().handlers);
    await openNew();
    expect(blockNames()).toEqual(['Block 1: Tweet']);
    expect(screen.getByRole('textbox', { name: 'Tweet URL' })).toHaveValue('https://x.com/a/status/1');
    expect(screen.getByRole('checkbox', { name: 'Mark as draft' })).toBeChecked();
    expect(button('Save as Draft')).toBeInTheDocument();
  });

  it('deletes a malformed local draft and starts empty', async () => {
    localStorage.setItem('new', '{"blocks": [{"type": "video"}], "draft": false}');
    fakeApi(postsServer().handlers);
    await openNew();
    expect(localStorage.getItem('new')).toBeNull();
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph']);
  });

  it('shows the messages on their blocks instead of sending, and clears them as the blocks are fixed', async () => {
    const server = fakeApi(postsServer().handlers);
    const { user } = await openNew();
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'Some text');
    await user.click(button('Publish'));

    expect(within(block(1)).getByRole('alert')).toHaveTextContent("Can't be blank");
    expect(within(block(1)).getByRole('textbox', { name: 'Heading' })).toHaveAttribute('aria-invalid', 'true');
    expect(within(block(1)).getByRole('textbox', { name: 'Heading' })).toHaveFocus();
    expect(within(block(2)).queryByRole('alert')).toBeNull();
    expect(server.sent('POST', POSTS)).toEqual([]);

    // Once messages show, every edit checks again.
    await user.clear(within(block(2)).getByRole('textbox', { name: 'Paragraph' }));
    expect(within(block(2)).getByRole('alert')).toHaveTextContent("Can't be blank");
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Title');
    expect(within(block(1)).queryByRole('alert')).toBeNull();
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'Text');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('adds blocks through the modal, before any block or after the last, in edit mode', async () => {
    fakeApi(postsServer().handlers);
    const { user } = await openNew();
    await user.click(button('Edit blocks'));
    expect(button('Edit blocks')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByRole('button', { name: /^Add block/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Add block before block 1',
      'Add block before block 2',
      'Add block at the end',
    ]);

    await user.click(button('Add block at the end'));
    const dialog = screen.getByRole('dialog', { name: 'Add a block' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['×', 'Heading', 'Paragraph', 'Link', 'Image', 'Spotify', 'Tweet']);
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph', 'Block 3: Link']);
    expect(within(block(3)).getByRole('textbox', { name: 'URL' })).toHaveFocus();
    expect(within(block(3)).getByRole('textbox', { name: 'Link Text' })).toBeInTheDocument();

    await user.click(button('Add block before block 1'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Spotify' }));
    const spotify = within(block(1)).getByRole('textbox', { name: 'Spotify URL' });
    expect(spotify).toHaveAttribute('placeholder', 'https://open.spotify.com/track/...');

    await user.click(button('Add block before block 2'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Tweet' }));
    expect(within(block(2)).getByRole('textbox', { name: 'Tweet URL' })).toHaveAttribute(
      'placeholder',
      'https://x.com/user/status/...',
    );
    expect(blockNames()).toEqual([
      'Block 1: Spotify',
      'Block 2: Tweet',
      'Block 3: Heading',
      'Block 4: Paragraph',
      'Block 5: Link',
    ]);

    await user.click(button('Edit blocks'));
    expect(screen.queryByRole('button', { name: /^Add block/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move up' })).toBeNull();
  });

  it('moves blocks up and down (not past the ends) and removes one only after confirmation', async () => {
    fakeApi(postsServer().handlers);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = await openNew();
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'One');
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'Two');
    await user.click(button('Edit blocks'));

    expect(within(block(1)).getByRole('button', { name: 'Move up' })).toBeDisabled();
    expect(within(block(1)).getByRole('button', { name: 'Move down' })).toBeEnabled();
    expect(within(block(2)).getByRole('button', { name: 'Move up' })).toBeEnabled();
    expect(within(block(2)).getByRole('button', { name: 'Move down' })).toBeDisabled();

    await user.click(within(block(1)).getByRole('button', { name: 'Move down' }));
    expect(blockNames()).toEqual(['Block 1: Paragraph', 'Block 2: Heading']);
    expect(within(block(2)).getByRole('textbox', { name: 'Heading' })).toHaveValue('One');
    await user.click(within(block(2)).getByRole('button', { name: 'Move up' }));
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph']);

    await user.click(within(block(1)).getByRole('button', { name: 'Remove' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to remove this block?');
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph']);
    confirm.mockReturnValue(true);
    await user.click(within(block(1)).getByRole('button', { name: 'Remove' }));
    expect(blockNames()).toEqual(['Block 1: Paragraph']);
    expect(storedDraft()).toEqual({ blocks: [{ type: 'paragraph', value: { text: 'Two' } }], draft: false });
  });

  it('uploads a picked image to this server and adds an image block with its thumbnail', async () => {
    fakeApi(postsServer().handlers);
    const { user } = await openNew();
    const click = vi.spyOn(HTMLInputElement.prototype, 'click');
    await user.click(button('Edit blocks'));
    await user.click(button('Add block before block 2'));
    const dialog = screen.getByRole('dialog', { name: 'Add a block' });
    const file = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    expect(file).toHaveAttribute('accept', 'image/jpeg,image/png,image/gif');
    await user.click(within(dialog).getByRole('button', { name: 'Image' }));
    expect(click.mock.contexts).toContain(file); // the picker opened

    await user.upload(file!, png());
    const image = await screen.findByRole('img', { name: 'The uploaded image' });
    expect(image).toHaveAttribute('src', 'http://localhost:8080/media/0123abcd.png');
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Image', 'Block 3: Paragraph']);

    const call = vi.mocked(fetch).mock.calls.find(([url]) => url === '/api/images');
    const init = call?.[1] as RequestInit;
    expect(init.method).toBe('POST');
    const form = init.body as FormData;
    expect(form.get('type')).toBe('file');
    expect((form.get('image') as File).name).toBe('dot.png');
    expect(new Headers(init.headers).get('Content-Type')).toBeNull();
  });

  it('says when an upload fails and adds no block', async () => {
    fakeApi(
      postsServer([], { 'POST /api/images': () => errors(413, { image: 'Images can be at most 10 MB' }) }).handlers,
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = await openNew();
    await user.click(button('Edit blocks'));
    await user.click(button('Add block at the end'));
    await user.upload(screen.getByRole('dialog').querySelector<HTMLInputElement>('input[type="file"]')!, png());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The image could not be uploaded: Images can be at most 10 MB',
    );
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Paragraph']);
    await user.click(button('Dismiss'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('creates the post, forgets the local draft, then shows the post list scrolled to the top', async () => {
    const server = fakeApi(postsServer().handlers);
    const { user, history } = await openNew();
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Hello');
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'World');
    expect(localStorage.getItem('new')).not.toBeNull();
    await user.click(button('Publish'));

    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('POST', POSTS).map((r) => r.body)).toEqual([
      {
        body: {
          type: 'root',
          children: [
            { type: 'heading', value: { text: 'Hello' } },
            { type: 'paragraph', value: { text: 'World' } },
          ],
        },
        draft: false,
        tags: [],
        page: false,
        visibility: 'public',
      },
    ]);
    expect(localStorage.getItem('new')).toBeNull();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(await screen.findByRole('link', { name: 'Hello' })).toBeInTheDocument();
  });

  it("shows the server's messages on their blocks and by the button, and lets the user try again", async () => {
    let fail = true;
    const server = postsServer();
    const create = server.handlers[`POST ${POSTS}`]!;
    fakeApi({
      ...server.handlers,
      [`POST ${POSTS}`]: (request) =>
        fail
          ? errors(422, { 'children.1': 'Should be at most 20000 characters' }, { body: 'Something about the body' })
          : create(request),
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, history } = await openNew();
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Hello');
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'World');
    await user.click(button('Publish'));

    expect(await within(block(2)).findByRole('alert')).toHaveTextContent('Should be at most 20000 characters');
    expect(screen.getByText('Something about the body')).toHaveAttribute('role', 'alert');
    expect(within(block(1)).queryByRole('alert')).toBeNull();
    expect(button('Publish')).toBeEnabled();
    expect(history.location.pathname).toBe('/d/posts/new');
    expect(logged).toHaveBeenCalledWith('quire: saving the post failed', expect.anything());
    expect(localStorage.getItem('new')).not.toBeNull();

    fail = false;
    await user.click(button('Publish'));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
  });

  it('asks before leaving with unsaved changes, and not after saving', async () => {
    fakeApi(postsServer().handlers);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user, history } = await openNew();
    const menu = screen.getByRole('navigation', { name: 'Menu' });

    // Nothing changed yet: no question.
    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    expect(history.location.pathname).toBe('/d/settings');
    expect(confirm).not.toHaveBeenCalled();
    await act(() => history.push('/d/posts/new'));
    await screen.findByRole('heading', { level: 1, name: 'New Post' });

    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Unsaved');
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);

    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure?');
    expect(history.location.pathname).toBe('/d/posts/new');

    confirm.mockReturnValue(true);
    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/settings'));
    expect(confirm).toHaveBeenCalledTimes(2);
  });
});

describe('editing a post', () => {
  const published = samplePost(1, {
    title: 'Published one',
    body: {
      type: 'root',
      children: [
        { type: 'heading', value: { text: 'Published one' } },
        { type: 'link', value: { url: 'https://example.com', title: 'Example' } },
      ],
    },
  });
  const draft = samplePost(2, { title: 'Draft one', publishedAt: null });

  it("loads the post first, then edits it with 'Save' and no draft checkbox when it is published", async () => {
    const server = fakeApi(postsServer([published]).handlers);
    const confirm = vi.spyOn(window, 'confirm');
    const { user, history } = renderRoute(`/d/posts/${published.shortId}/edit`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Post' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Mark as draft' })).toBeNull();
    expect(blockNames()).toEqual(['Block 1: Heading', 'Block 2: Link']);
    expect(within(block(2)).getByRole('textbox', { name: 'URL' })).toHaveValue('https://example.com');
    expect(within(block(2)).getByRole('textbox', { name: 'Link Text' })).toHaveValue('Example');

    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), ' again');
    await user.click(button('Save'));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('PUT', `${POSTS}/${published.shortId}`).map((r) => r.body)).toEqual([
      {
        body: {
          type: 'root',
          children: [
            { type: 'heading', value: { text: 'Published one again' } },
            { type: 'link', value: { url: 'https://example.com', title: 'Example' } },
          ],
        },
        draft: false,
        tags: [],
        page: false,
        visibility: 'public',
      },
    ]);
    expect(confirm).not.toHaveBeenCalled();
    expect(localStorage.getItem('new')).toBeNull();
  });

  it("offers 'Mark as draft' (ticked) for an unpublished post and publishes it when unticked", async () => {
    const server = fakeApi(postsServer([draft]).handlers);
    const { user, history } = renderRoute(`/d/posts/${draft.shortId}/edit`);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark as draft' });
    expect(checkbox).toBeChecked();
    expect(button('Publish')).toBeInTheDocument();
    await user.click(checkbox);
    expect(button('Publish')).toBeInTheDocument();
    await user.click(button('Publish'));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('PUT', `${POSTS}/${draft.shortId}`).map((r) => (r.body as { draft: boolean }).draft)).toEqual([
      false,
    ]);
  });

  it('says so when the post does not exist', async () => {
    fakeApi(postsServer().handlers);
    renderRoute('/d/posts/zzzzzzzz/edit');
    expect(await screen.findByText('This post does not exist. It may have been deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to your posts' })).toHaveAttribute('href', '/d/posts');
  });

  it('deletes the post after confirmation and goes back to the list', async () => {
    const server = fakeApi(postsServer([published, draft]).handlers);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user, history } = renderRoute(`/d/posts/${draft.shortId}/edit`);
    await user.click(await screen.findByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this post? This cannot be undone.');
    expect(server.sent('DELETE', `${POSTS}/${draft.shortId}`)).toEqual([]);

    confirm.mockReturnValue(true);
    await user.click(button('More'));
    await user.click(button('Delete'));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('DELETE', `${POSTS}/${draft.shortId}`)).toHaveLength(1);
    expect(await screen.findByRole('link', { name: 'Published one' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Draft one' })).toBeNull();
  });
});

describe('image uploads with an image host', () => {
  it('posts the same form to the host with the client ID and uses its link', async () => {
    const requests: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        requests.push({ url, init });
        return json({ data: { link: 'https://i.imgur.com/abc.png' }, success: true, status: 200 });
      }),
    );
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <PostEditor
              blogId={alice.blog.id}
              post={null}
              config={{
                imgurClientId: 'client-42',
                blockRules: { ...fixtureRules(), imagePrefix: 'https://i.imgur.com/' },
              }}
            />
          ),
        },
      ],
      '/',
    );
    const user = userEvent.setup();
    await user.click(button('Edit blocks'));
    await user.click(button('Add block at the end'));
    await user.upload(screen.getByRole('dialog').querySelector<HTMLInputElement>('input[type="file"]')!, png());
    expect(await screen.findByRole('img', { name: 'The uploaded image' })).toHaveAttribute(
      'src',
      'https://i.imgur.com/abc.png',
    );

    expect(requests).toHaveLength(1);
    const [{ url, init }] = requests as [{ url: string; init: RequestInit }];
    expect(url).toBe('https://api.imgur.com/3/image');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Client-ID client-42');
    expect(headers.get('CSRF-Token')).toBeNull();
    expect(init.credentials).toBe('omit');
    expect((init.body as FormData).get('type')).toBe('file');
    expect((init.body as FormData).get('image')).toBeInstanceOf(File);
  });
});
