import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errors, fakeApi, json, alice } from '../../test/fake-api';
import { BlogCreationForm } from './blog-creation-form';
import { captureInviteLink, storedInvite } from './invite-link';

const realResolvedOptions = Intl.DateTimeFormat.prototype.resolvedOptions;

/** Makes the browser say it is in `zone`, as Intl reports the system's zone. */
function browserIn(zone: string) {
  const real = realResolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...real.call(this), timeZone: zone };
  });
}

/** The server's subdomain and time-zone rules, as far as these tests need them. */
function blogServer() {
  return fakeApi({
    'POST /api/my/blogs': (request) => {
      const { subdomain, time_zone: timeZone } = request.body as { subdomain: string; time_zone?: string };
      if (timeZone === 'Mars/Olympus_Mons') {
        return errors(422, { timeZone: 'Unknown time zone: choose one from the list, such as Europe/Paris' });
      }
      if (subdomain.length < 3) return errors(422, { subdomain: 'Should be 3 to 63 characters long' });
      if (subdomain === 'www') return errors(422, { subdomain: 'This subdomain is reserved' });
      if (subdomain === 'Bad_Name') {
        return errors(
          422,
          { subdomain: 'Should be 3 to 63 characters long' },
          { subdomain: 'Use only lowercase letters a-z, digits and hyphens' },
        );
      }
      return json({ blog: { ...alice.blog, subdomain } }, 201);
    },
  });
}

function renderForm() {
  const onCreated = vi.fn();
  const user = userEvent.setup();
  render(<BlogCreationForm host="localhost:8080" onCreated={onCreated} />);
  const input = screen.getByRole('textbox', { name: 'Preferred subdomain' });
  const submit = screen.getByRole('button', { name: 'Signup' });
  return { onCreated, user, input, submit };
}

describe('blog-creation screen', () => {
  beforeEach(() => browserIn('Asia/Tokyo'));

  it('asks for a subdomain with the URL pattern beside the input', () => {
    blogServer();
    const { input } = renderForm();
    expect(screen.getByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.getByText('.localhost:8080')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription('.localhost:8080');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's last message under the input and clears it when the input changes", async () => {
    const server = blogServer();
    const { user, input, submit, onCreated } = renderForm();

    await user.type(input, 'ab');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Should be 3 to 63 characters long');
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.type(input, 'c');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.clear(input);
    await user.type(input, 'Bad_Name{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Use only lowercase letters a-z, digits and hyphens$/);

    await user.clear(input);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(input, 'www');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('This subdomain is reserved');

    expect(server.sent('POST', '/api/my/blogs').map((r) => r.body)).toEqual([
      { subdomain: 'ab', time_zone: 'Asia/Tokyo' },
      { subdomain: 'Bad_Name', time_zone: 'Asia/Tokyo' },
      { subdomain: 'www', time_zone: 'Asia/Tokyo' },
    ]);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('reports the new blog once the server created it', async () => {
    const server = blogServer();
    const { user, input, submit, onCreated } = renderForm();
    await user.type(input, 'alice');
    await user.click(submit);
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(server.sent('POST', '/api/my/blogs').map((r) => r.body)).toEqual([
      { subdomain: 'alice', time_zone: 'Asia/Tokyo' },
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("creates the blog in UTC when the server does not know the browser's time zone", async () => {
    browserIn('Mars/Olympus_Mons');
    const server = blogServer();
    const { user, input, submit, onCreated } = renderForm();
    await user.type(input, 'alice');
    await user.click(submit);
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(server.sent('POST', '/api/my/blogs').map((r) => r.body)).toEqual([
      { subdomain: 'alice', time_zone: 'Mars/Olympus_Mons' },
      { subdomain: 'alice' },
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('blog-creation screen on an instance by invitation', () => {
  beforeEach(() => {
    browserIn('Asia/Tokyo');
    window.sessionStorage.clear();
  });

  /** A server that takes only the code `good`, once. */
  function inviteServer() {
    const sent: unknown[] = [];
    fakeApi({
      'POST /api/my/blogs': (request) => {
        sent.push(request.body);
        const { invite, subdomain } = request.body as { invite?: string; subdomain: string };
        if (invite !== 'good') {
          return errors(403, { invite: 'This invite code cannot be used: it may be used up, revoked or expired.' });
        }
        return json({ blog: { ...alice.blog, subdomain } }, 201);
      },
    });
    return sent;
  }

  it('fills in the code an invite link brought, sends it, and forgets it once the blog exists', async () => {
    const sent = inviteServer();
    window.history.replaceState(null, '', '/?invite=good#top');
    captureInviteLink();
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/#top');
    const onCreated = vi.fn();
    const user = userEvent.setup();
    render(<BlogCreationForm host="localhost:8080" onCreated={onCreated} inviteNeeded />);
    expect(screen.getByRole('textbox', { name: 'Invite code' })).toHaveValue('good');
    await user.type(screen.getByRole('textbox', { name: 'Preferred subdomain' }), 'ann');
    await user.click(screen.getByRole('button', { name: 'Signup' }));
    expect(onCreated).toHaveBeenCalledOnce();
    expect(sent).toEqual([{ subdomain: 'ann', time_zone: 'Asia/Tokyo', invite: 'good' }]);
    expect(storedInvite()).toBe('');
  });

  it("shows the server's refusal of a code on the error line", async () => {
    inviteServer();
    const onCreated = vi.fn();
    const user = userEvent.setup();
    render(<BlogCreationForm host="localhost:8080" onCreated={onCreated} inviteNeeded />);
    await user.type(screen.getByRole('textbox', { name: 'Preferred subdomain' }), 'ann');
    await user.type(screen.getByRole('textbox', { name: 'Invite code' }), 'guess');
    await user.click(screen.getByRole('button', { name: 'Signup' }));
    expect(await screen.findByText(/This invite code cannot be used/)).toBeInTheDocument();
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('asks for no code on an open instance', () => {
    blogServer();
    renderForm();
    expect(screen.queryByRole('textbox', { name: 'Invite code' })).toBeNull();
  });
});
