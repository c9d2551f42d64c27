// The sign-in popup, faked: window.open hands out this object, and the test plays the callback
// page by posting the message the real one posts.
import { vi } from 'vitest';
import { ID_TOKEN_MESSAGE } from '../features/auth';

export interface FakePopup {
  closed: boolean;
  location: { href: string };
  close: () => void;
}

/** Makes window.open return a fake popup (or null: blocked) and returns it with the spy. */
export function fakePopup(options: { blocked?: boolean } = {}) {
  const popup: FakePopup = {
    closed: false,
    location: { href: 'about:blank' },
    close: vi.fn(() => {
      popup.closed = true;
    }),
  };
  const open = vi
    .spyOn(window, 'open')
    .mockImplementation(() => (options.blocked ? null : (popup as unknown as Window)));
  return { popup, open };
}

/** What the callback page posts to its opener; `origin` defaults to the app's own. */
export function postFromCallback(data: Record<string, unknown>, origin: string = window.location.origin): void {
  window.dispatchEvent(new MessageEvent('message', { data: { type: ID_TOKEN_MESSAGE, ...data }, origin }));
}
