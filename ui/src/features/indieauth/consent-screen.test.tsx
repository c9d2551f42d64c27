import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { landingReturningTo, returnPathFrom } from '../../config/paths';
import { errors, fakeApi, injectConfig, json, signedIn } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';
import { ConsentScreen } from './consent-screen';

beforeAll(() => {
  injectConfig({ host: 'localhost:8080', providerName: 'Local' });
});

const QUERY =
  'response_type=code&client_id=https%3A%2F%2Fapp.example%2F&redirect_uri=https%3A%2F%2Fapp.example%2Fback&state=s1&code_challenge=abc&code_challenge_method=S256&scope=create+media+profile';

const app = {
  clientId: 'https://app.example/',
  clientName: 'Quill <b>',
  redirectUri: 'https://app.example/back',
  scopes: ['create', 'media'],
  profileUrl: 'http://alice.localhost:8080/',
};

describe('IndieAuth consent screen', () => {
  it('names the app and the blog, ticks every scope asked for, and approves with those left ticked', async () => {
    const leave = vi.fn();
    const api = fakeApi({
      'POST /api/my/indieauth/check': () => json({ app, redirectTo: null }),
      'POST /api/my/indieauth/approve': () => json({ redirectTo: 'https://app.example/back?code=c1&state=s1' }),
    });
    render(<ConsentScreen query={QUERY} leave={leave} />);
    expect(await screen.findByText('Quill <b>', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText('https://app.example/')).toBeInTheDocument();
    expect(screen.getByText('http://alice.localhost:8080/')).toBeInTheDocument();
    expect(screen.getByText('app.example')).toBeInTheDocument();
    const create = screen.getByRole('checkbox', { name: 'Create posts' });
    const media = screen.getByRole('checkbox', { name: 'Upload images' });
    expect(create).toBeChecked();
    expect(media).toBeChecked();
    const user = userEvent.setup();
    await user.click(media);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://app.example/back?code=c1&state=s1'));
    expect(api.sent('POST', '/api/my/indieauth/check')[0]?.body).toEqual({ query: QUERY });
    expect(api.sent('POST', '/api/my/indieauth/approve')[0]?.body).toEqual({ query: QUERY, scopes: ['create'] });
  });

  it('refuses: the app is told', async () => {
    const leave = vi.fn();
    fakeApi({
      'POST /api/my/indieauth/check': () => json({ app, redirectTo: null }),
      'POST /api/my/indieauth/refuse': () => json({ redirectTo: 'https://app.example/back?error=access_denied' }),
    });
    render(<ConsentScreen query={QUERY} leave={leave} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Refuse' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://app.example/back?error=access_denied'));
  });

  it('says an app that asks for no scope gets no token', async () => {
    fakeApi({ 'POST /api/my/indieauth/check': () => json({ app: { ...app, scopes: [] }, redirectTo: null }) });
    render(<ConsentScreen query={QUERY} leave={vi.fn()} />);
    expect(await screen.findByText('It only asks who you are: it gets no token to write with.')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('sends a request the app must hear about straight back to it', async () => {
    const leave = vi.fn();
    fakeApi({
      'POST /api/my/indieauth/check': () =>
        json({ app: null, redirectTo: 'https://app.example/back?error=invalid_request' }),
    });
    render(<ConsentScreen query={QUERY} leave={leave} />);
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://app.example/back?error=invalid_request'));
  });

  it("shows the server's words for a request that cannot go back to any app", async () => {
    const leave = vi.fn();
    fakeApi({
      'POST /api/my/indieauth/check': () =>
        errors(422, { request: 'The redirect URI is not on the app’s own site, and the app does not list it' }),
    });
    render(<ConsentScreen query={QUERY} leave={leave} />);
    expect(
      await screen.findByText('The redirect URI is not on the app’s own site, and the app does not list it'),
    ).toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
  });

  it('is a screen of the owner area at /d/indieauth', async () => {
    fakeApi({ ...signedIn(), 'POST /api/my/indieauth/check': () => json({ app, redirectTo: null }) });
    renderRoute(`/d/indieauth?${QUERY}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to an app' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('signed out, goes to the landing page set to come back to the request', async () => {
    fakeApi({ 'GET /api/session': () => json({ session: null }) });
    const { history } = renderRoute(`/d/indieauth?${QUERY}`);
    await waitFor(() => expect(history.location.pathname).toBe('/'));
    expect(returnPathFrom(history.location.search)).toBe(`/d/indieauth?${QUERY}`);
  });
});

describe('the return path after sign-in', () => {
  it('follows owner-area paths only', () => {
    expect(returnPathFrom(new URL(landingReturningTo('/d/settings'), 'http://x').search)).toBe('/d/settings');
    expect(landingReturningTo('/d/posts')).toBe('/');
    expect(returnPathFrom('')).toBe('/d/posts');
    expect(returnPathFrom('?next=https%3A%2F%2Fevil.example%2Fd%2F')).toBe('/d/posts');
    expect(returnPathFrom('?next=%2F%2Fevil.example%2Fd%2F')).toBe('/d/posts');
    expect(returnPathFrom('?next=%2Fd%2F..%2F..%2Fsignout')).toBe('/d/posts');
    expect(returnPathFrom('?next=%2Fsignout')).toBe('/d/posts');
  });
});
