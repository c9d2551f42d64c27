// An invite link (`/?invite=CODE`, printed by `quire invites create`): the code is kept in this
// tab's sessionStorage across the sign-in round trip, for the Welcome screen to fill in, and taken
// out of the address bar so it is not bookmarked, shared or kept in the history.

const KEY = 'quire.invite';

/** Keeps the `invite` of `location`'s query, if any, and removes it from the address bar. */
export function captureInviteLink(win: Window = window): void {
  const url = new URL(win.location.href);
  const code = url.searchParams.get('invite');
  if (code === null) return;
  const trimmed = code.trim();
  try {
    if (trimmed !== '') win.sessionStorage.setItem(KEY, trimmed);
  } catch {
    // Storage refused (private mode, quota): the owner types the code instead.
  }
  url.searchParams.delete('invite');
  win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** The code an invite link brought, or ''. */
export function storedInvite(win: Window = window): string {
  try {
    return win.sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

/** Forgets the code once the blog exists. */
export function forgetInvite(win: Window = window): void {
  try {
    win.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
