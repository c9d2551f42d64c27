import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../test/render-route';

/** Plays the page that opened the popup. */
function fakeOpener() {
  const opener = { closed: false, postMessage: vi.fn() };
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
  const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
  return { opener, close };
}

afterEach(() => {
  Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true });
});

describe('/auth/callback', () => {
  it('hands the ID token to the opener, for this origin only, and closes', () => {
    const { opener, close } = fakeOpener();
    renderRoute('/auth/callback#id_token=eyJ.token.sig&state=');
    expect(opener.postMessage).toHaveBeenCalledOnce();
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'quire:id_token', idToken: 'eyJ.token.sig' },
      window.location.origin,
    );
    expect(close).toHaveBeenCalled();
  });

  it("passes the provider's error on instead of a token", () => {
    const { opener, close } = fakeOpener();
    renderRoute('/auth/callback#error=access_denied&error_description=The+user+said+no');
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'quire:id_token', error: 'access_denied: The user said no' },
      window.location.origin,
    );
    expect(close).toHaveBeenCalled();
  });

  it('says the window can be closed when nothing opened it, and drops the token from the address', () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const { history } = renderRoute('/auth/callback#id_token=eyJ.token.sig');
    expect(screen.getByRole('heading', { name: 'You can close this window' })).toBeInTheDocument();
    expect(history.location.hash).toBe('');
    expect(close).not.toHaveBeenCalled();
  });
});
