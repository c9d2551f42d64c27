// IndieAuth (issue 37; docs/api.md section 16.4): an app signs in to a blog. The app is a small
// server on 127.0.0.1 (its client id page names it, its callback receives the answer) and this
// test plays its code: it finds the endpoints from the blog's page, sends the owner's browser to
// the authorization endpoint with PKCE, and redeems the code. The owner, signed out in that
// browser, signs in and comes back to the consent screen, approves with one scope fewer, and the
// token the app gets publishes through Micropub until the owner revokes it in Settings. Quire runs
// with --test-only-fetch-loopback so its fetcher may read the app's page.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signedOutContext, watchForErrors } from './support/browser';
import { signInWithLocalIssuer, signUpWithBlog } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

const quire = ownQuire(() => startQuire({ args: ['--test-only-fetch-loopback'] }));

/** The app's own site: its page (named by its title) and the callback, with what reached it. */
const appSite = { server: undefined as Server | undefined, port: 0, callbacks: [] as string[] };

test.beforeAll(async () => {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (url.pathname === '/callback') {
      appSite.callbacks.push(request.url ?? '');
      response.end('<!doctype html><title>Pocket Notes</title><p>Back in Pocket Notes.</p>');
    } else {
      response.end('<!doctype html><title>Pocket Notes</title><h1>Pocket Notes</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  appSite.server = server;
  appSite.port = (server.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((resolve) => appSite.server?.close(resolve));
});

/** One `rel` of a Link header. */
function linkRel(header: string, rel: string): string | undefined {
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (match?.[2]?.split(' ').includes(rel)) return match[1];
  }
  return undefined;
}

test('an app signs in to the blog after the owner approves, and is refused once revoked', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const problems = watchForErrors(page);
  const { baseUrl, port } = quire();
  await signUpWithBlog(page, baseUrl, 'tess@example.com', 'tess');
  const profile = `http://tess.localhost:${port}/`;
  const clientId = `http://127.0.0.1:${appSite.port}/`;
  const redirectUri = `http://127.0.0.1:${appSite.port}/callback`;

  // The app discovers the endpoints from the blog's page, then its metadata.
  const appClient = await signedOutContext(browser);
  const blogPage = await appClient.request.get(`http://127.0.0.1:${port}/`, {
    headers: { Host: `tess.localhost:${port}` },
  });
  const metadataUrl = linkRel(blogPage.headers()['link'] ?? '', 'indieauth-metadata');
  expect(metadataUrl).toBe(`${baseUrl}/.well-known/oauth-authorization-server`);
  const metadata = (await (await appClient.request.get(metadataUrl ?? '')).json()) as Record<string, unknown>;
  expect(metadata['code_challenge_methods_supported']).toEqual(['S256']);

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(String(metadata['authorization_endpoint']));
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state: 'st-42',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'create media profile',
    me: profile,
  }))
    authorize.searchParams.set(name, value);

  // The owner's browser, signed out there, is sent to the authorization endpoint: sign-in first,
  // then the consent screen with the request intact.
  const owner = await signedOutContext(browser);
  const ownerPage = await owner.newPage();
  const ownerProblems = watchForErrors(ownerPage);
  await ownerPage.goto(authorize.toString());
  await expect(ownerPage).toHaveURL(/\/\?next=%2Fd%2Findieauth%3F/);
  await signInWithLocalIssuer(ownerPage, 'Login with Local', 'tess@example.com');
  await expect(ownerPage.getByRole('heading', { level: 1, name: 'Sign in to an app' })).toBeVisible();
  await expect(ownerPage.getByText('Pocket Notes', { exact: true })).toBeVisible();
  await expect(ownerPage.getByText(clientId, { exact: true })).toBeVisible();
  await expect(ownerPage.getByText(profile, { exact: true })).toBeVisible();
  const create = ownerPage.getByRole('checkbox', { name: 'Create posts' });
  const media = ownerPage.getByRole('checkbox', { name: 'Upload images' });
  await expect(create).toBeChecked();
  await expect(media).toBeChecked();
  await media.uncheck();
  await ownerPage.getByRole('button', { name: 'Approve' }).click();

  // Back at the app with a code, its state and the issuer.
  await expect(ownerPage).toHaveURL(new RegExp(`^${redirectUri}\\?`));
  await expect(ownerPage.getByText('Back in Pocket Notes.')).toBeVisible();
  const answer = new URL(ownerPage.url());
  expect(answer.searchParams.get('state')).toBe('st-42');
  expect(answer.searchParams.get('iss')).toBe(metadata['issuer']);
  const code = answer.searchParams.get('code') ?? '';
  expect(code).not.toBe('');

  // A wrong verifier is refused, and spends the code.
  const redeem = (codeVerifier: string) =>
    appClient.request.post(String(metadata['token_endpoint']), {
      headers: { Accept: 'application/json' },
      form: {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      },
    });
  const stolen = await redeem(randomBytes(32).toString('base64url'));
  expect(stolen.status()).toBe(400);
  expect((await stolen.json()).error).toBe('invalid_grant');
  expect((await redeem(verifier)).status()).toBe(400);

  // Again, redeemed with the right verifier this time: the token, with the scope granted.
  await ownerPage.goto(authorize.toString());
  await ownerPage.getByRole('checkbox', { name: 'Upload images' }).uncheck();
  await ownerPage.getByRole('button', { name: 'Approve' }).click();
  await expect(ownerPage).toHaveURL(new RegExp(`^${redirectUri}\\?`));
  const second = new URL(ownerPage.url()).searchParams.get('code') ?? '';
  const redeemed = await appClient.request.post(String(metadata['token_endpoint']), {
    headers: { Accept: 'application/json' },
    form: {
      grant_type: 'authorization_code',
      code: second,
      client_id: clientId,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    },
  });
  expect(redeemed.status()).toBe(200);
  const token = (await redeemed.json()) as { access_token: string; scope: string; me: string; token_type: string };
  expect(token.me).toBe(profile);
  expect(token.scope).toBe('create');
  expect(token.token_type).toBe('Bearer');

  const published = await appClient.request.post(`${baseUrl}/micropub`, {
    headers: { Authorization: `Bearer ${token.access_token}` },
    form: { h: 'entry', name: 'From my pocket', content: 'Written in Pocket Notes.' },
  });
  expect(published.status()).toBe(201);
  const noMedia = await appClient.request.post(`${baseUrl}/micropub/media`, {
    headers: { Authorization: `Bearer ${token.access_token}` },
    multipart: { file: { name: 'a.png', mimeType: 'image/png', buffer: Buffer.from('not really') } },
  });
  expect(noMedia.status()).toBe(401);
  expect((await noMedia.json()).error).toBe('insufficient_scope');

  // Settings lists the app's token under its name; revoking it shuts the app out.
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'API tokens', exact: true });
  const row = panel
    .getByRole('list', { name: 'Your tokens' })
    .getByRole('listitem')
    .filter({ hasText: 'Pocket Notes' });
  await expect(row).toContainText(`Signed in from ${clientId}`);
  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Revoke Pocket Notes' }).click();
  await expect(row).toHaveCount(0);
  const refused = await appClient.request.post(`${baseUrl}/micropub`, {
    headers: { Authorization: `Bearer ${token.access_token}` },
    form: { h: 'entry', content: 'Too late' },
  });
  expect(refused.status()).toBe(401);
  expect(appSite.callbacks).toHaveLength(2);
  expect(problems).toEqual([]);
  expect(ownerProblems).toEqual([]);
  await owner.close();
  await appClient.close();
});

test('refusing tells the app access_denied', async ({ browser }) => {
  const { baseUrl } = quire();
  const owner = await signedOutContext(browser);
  const ownerPage = await owner.newPage();
  const problems = watchForErrors(ownerPage);
  await signUpWithBlog(ownerPage, baseUrl, 'ruth@example.com', 'ruth');
  const authorize = new URL(`${baseUrl}/indieauth/auth`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: `http://127.0.0.1:${appSite.port}/`,
    redirect_uri: `http://127.0.0.1:${appSite.port}/callback`,
    state: 'st-7',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
    scope: 'create',
  }))
    authorize.searchParams.set(name, value);
  await ownerPage.goto(authorize.toString());
  await ownerPage.getByRole('button', { name: 'Refuse' }).click();
  await expect(ownerPage).toHaveURL(new RegExp(`/callback\\?`));
  const answer = new URL(ownerPage.url());
  expect(answer.searchParams.get('error')).toBe('access_denied');
  expect(answer.searchParams.get('state')).toBe('st-7');
  expect(problems).toEqual([]);
  await owner.close();
});
