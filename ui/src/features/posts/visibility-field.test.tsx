import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, injectConfig } from '../../test/fake-api';
import { postsServer, samplePost } from '../../test/fake-posts';
import { renderRoute } from '../../test/render-route';

beforeAll(() => injectConfig({ host: 'localhost:8080', appUrl: 'http://localhost:8080', providerName: 'Local' }));
beforeEach(() => localStorage.clear());

const POSTS = '/api/my/blogs/7/posts';
const visibility = () => screen.getByRole('combobox', { name: 'Visibility' });
const announce = () => screen.queryByRole('checkbox', { name: 'Announce to followers and subscribers' });
const sentBodies = (server: ReturnType<typeof fakeApi>, method: string, path: string) =>
  server.sent(method, path).map((r) => r.body as Record<string, unknown>);

describe('the visibility control', () => {
  it('publishes a new post unlisted when Unlisted is chosen, and the list marks it "Unlisted"', async () => {
    const server = fakeApi(postsServer([samplePost(1, { title: 'Public one' })]).handlers);
    const { user, history } = renderRoute('/d/posts/new');
    await screen.findByRole('heading', { level: 1, name: 'New Post' });
    expect(visibility()).toHaveValue('public');
    expect(screen.queryByText('Only people with the link can find it.')).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'For friends');
    await user.type(screen.getByRole('textbox', { name: 'Paragraph' }), 'Hello');
    await user.selectOptions(visibility(), 'unlisted');
    expect(screen.getByText('Only people with the link can find it.')).toBeInTheDocument();
    expect(announce()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    const [sent] = sentBodies(server, 'POST', POSTS);
    expect(sent).toMatchObject({ draft: false, visibility: 'unlisted' });
    expect(sent).not.toHaveProperty('announce');
    const card = (await screen.findByRole('link', { name: 'For friends' })).closest('article') as HTMLElement;
    expect(within(card).getByText('· Unlisted')).toBeInTheDocument();
    const other = screen.getByRole('link', { name: 'Public one' }).closest('article') as HTMLElement;
    expect(within(other).queryByText('· Unlisted')).toBeNull();
  });

  it('offers to announce a published unlisted post made public, and sends it only when ticked', async () => {
    const hidden = samplePost(1, { title: 'Hidden one', visibility: 'unlisted' });
    const server = fakeApi(postsServer([hidden]).handlers);
    const { user, history } = renderRoute(`/d/posts/${hidden.shortId}/edit`);
    await screen.findByRole('button', { name: 'Save' });
    expect(visibility()).toHaveValue('unlisted');
    expect(announce()).toBeNull();
    await user.selectOptions(visibility(), 'public');
    expect(announce()).not.toBeChecked();
    await user.click(announce() as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    expect(sentBodies(server, 'PUT', `${POSTS}/${hidden.shortId}`)).toEqual([
      expect.objectContaining({ visibility: 'public', announce: true }),
    ]);
  });

  it('makes a published unlisted post public quietly when "Announce" is left unticked', async () => {
    const hidden = samplePost(1, { title: 'Hidden one', visibility: 'unlisted' });
    const server = fakeApi(postsServer([hidden]).handlers);
    const { user, history } = renderRoute(`/d/posts/${hidden.shortId}/edit`);
    await screen.findByRole('button', { name: 'Save' });
    await user.selectOptions(visibility(), 'public');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(history.location.pathname).toBe('/d/posts'));
    const [sent] = sentBodies(server, 'PUT', `${POSTS}/${hidden.shortId}`);
    expect(sent).toMatchObject({ visibility: 'public' });
    expect(sent).not.toHaveProperty('announce');
  });

  it('is hidden for a page, which is always public', async () => {
    fakeApi(postsServer().handlers);
    const { user } = renderRoute('/d/posts/new');
    await screen.findByRole('heading', { level: 1, name: 'New Post' });
    await user.click(screen.getByRole('checkbox', { name: 'Show as a page' }));
    expect(screen.queryByRole('combobox', { name: 'Visibility' })).toBeNull();
  });
});
