import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errors, fakeApi, injectConfig, json } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';
import { ALT_HINT, ALT_MISSING, MARKDOWN_HINT } from './block-editor';
import { parseLocalDraft } from './local-draft';
import { PREVIEW_FRAME_TITLE, PREVIEW_REFUSED } from './post-preview';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));
beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('scrollTo', vi.fn());
});

const PREVIEW = '/api/my/blogs/7/preview';
const IMAGE_URL = 'http://localhost:8080/media/0123abcd.png';
const block = (n: number) => screen.getByRole('group', { name: new RegExp(`^Block ${n}: `) });

const withImage = samplePost(1, {
  title: 'Pictures',
  body: {
    type: 'root',
    children: [
      { type: 'heading', value: { text: 'Pictures' } },
      // Stored before alt texts existed: the URL alone.
      { type: 'image', value: { url: IMAGE_URL } },
    ],
  },
});

async function openNew() {
  const rendered = renderRoute('/d/posts/new');
  await screen.findByRole('heading', { level: 1, name: 'New Post' });
  return rendered;
}

describe('paragraphs in Markdown', () => {
  it('show a one-line formatting hint under each paragraph, tied to its field', async () => {
    fakeApi(postsServer().handlers);
    await openNew();
    const paragraph = within(block(2)).getByRole('textbox', { name: 'Paragraph' });
    expect(paragraph).toHaveAccessibleDescription(MARKDOWN_HINT);
    expect(MARKDOWN_HINT).toContain('**bold**');
    expect(MARKDOWN_HINT).toContain('[link](https://…)');
  });

  it("Preview frames the blog's own page of the blocks, hides the blocks, and toggles back to them", async () => {
    const page = 'http://alice.localhost:8080/post-preview/0123456789abcdef0123456789abcdef';
    const server = fakeApi({
      ...postsServer().handlers,
      [`POST ${PREVIEW}`]: () => json({ title: 'Hello', html: '<p>A <strong>bold</strong> word</p>', page }),
    });
    const { user } = await openNew();
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Hello');
    await user.type(within(block(2)).getByRole('textbox', { name: 'Paragraph' }), 'A **bold** word');
    const toggle = screen.getByRole('button', { name: 'Preview' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await user.click(toggle);
    const preview = await screen.findByRole('article', { name: 'Preview' });
    const frame = within(preview).getByTitle(PREVIEW_FRAME_TITLE);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', page);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('group', { name: /^Block 1/ })).toBeNull(); // the blocks are hidden meanwhile
    expect(server.sent('POST', PREVIEW).map((r) => r.body)).toEqual([
      {
        body: {
          type: 'root',
          children: [
            { type: 'heading', value: { text: 'Hello' } },
            { type: 'paragraph', value: { text: 'A **bold** word' } },
          ],
        },
      },
    ]);

    await user.click(toggle);
    expect(screen.queryByRole('article', { name: 'Preview' })).toBeNull();
    expect(within(block(2)).getByRole('textbox', { name: 'Paragraph' })).toHaveValue('A **bold** word');
    expect(server.sent('POST', '/api/my/blogs/7/posts')).toEqual([]); // previewing saves nothing
  });

  it("puts the server's refusal of a preview on the blocks it is about", async () => {
    fakeApi({
      ...postsServer().handlers,
      [`POST ${PREVIEW}`]: () => errors(422, { 'children.1': "Can't be blank" }),
    });
    const { user } = await openNew();
    await user.type(within(block(1)).getByRole('textbox', { name: 'Heading' }), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText(PREVIEW_REFUSED)).toBeInTheDocument();
    expect(within(block(2)).getByRole('textbox', { name: 'Paragraph' })).toHaveAccessibleDescription(
      `${MARKDOWN_HINT} Can't be blank`,
    );
    expect(screen.getByRole('button', { name: 'Preview' })).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('images that describe themselves', () => {
  it('ask for alt text with a gentle warning that does not stop the save, and send alt and caption', async () => {
    const server = fakeApi(postsServer([withImage]).handlers);
    const { user, history } = renderRoute(`/d/posts/${withImage.shortId}/edit`);
    await screen.findByRole('button', { name: 'Save' });
    const alt = within(block(2)).getByRole('textbox', { name: 'Alt text' });
    expect(alt).toHaveValue('');
    expect(alt).toHaveAccessibleDescription(ALT_MISSING);
    expect(alt).not.toHaveAttribute('aria-invalid');

    await user.type(alt, 'A red kite');
    expect(alt).toHaveAccessibleDescription(ALT_HINT);
    await user.type(within(block(2)).getByRole('textbox', { name: 'Caption' }), 'Over the hill');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    const sent = server.sent('PUT', `/api/my/blogs/7/posts/${withImage.shortId}`)[0]?.body as {
      body: { children: unknown[] };
    };
    expect(sent.body.children[1]).toEqual({
      type: 'image',
      value: { url: IMAGE_URL, alt: 'A red kite', caption: 'Over the hill' },
    });
  });

  it('saves an image without alt text: the warning is not a blocker', async () => {
    const server = fakeApi(postsServer([withImage]).handlers);
    const { user, history } = renderRoute(`/d/posts/${withImage.shortId}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(server.sent('PUT', `/api/my/blogs/7/posts/${withImage.shortId}`)).toHaveLength(1);
  });

  it('puts a too-long alt text message on the alt text field', async () => {
    const post = samplePost(2, {
      body: {
        type: 'root',
        children: [{ type: 'image', value: { url: IMAGE_URL, alt: 'a'.repeat(1001), caption: '' } }],
      },
    });
    const server = fakeApi(postsServer([post]).handlers);
    const { user } = renderRoute(`/d/posts/${post.shortId}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    const alt = within(block(1)).getByRole('textbox', { name: 'Alt text' });
    expect(alt).toHaveAttribute('aria-invalid', 'true');
    expect(alt).toHaveAccessibleDescription(`${ALT_HINT} The alt text should be at most 1000 characters`);
    expect(server.sent('PUT', `/api/my/blogs/7/posts/${post.shortId}`)).toEqual([]);
  });

  it('keeps alt and caption in the local draft, and reads drafts kept before they existed', () => {
    const image = { type: 'image', value: { url: IMAGE_URL, alt: 'Kite', caption: 'Hill' } };
    expect(parseLocalDraft({ blocks: [image], draft: false })?.blocks).toEqual([image]);
    expect(parseLocalDraft({ blocks: [{ type: 'image', value: { url: IMAGE_URL } }], draft: false })?.blocks).toEqual([
      { type: 'image', value: { url: IMAGE_URL, alt: '', caption: '' } },
    ]);
  });
});
