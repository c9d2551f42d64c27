// The calls behind the IndieAuth consent screen (issue 37): an app asks to sign in to the blog
// (`GET /indieauth/auth` sends the browser here with the request in the address); the server checks
// the request and names the app, and the owner approves (a code goes to the app) or refuses.
import type { Answered, ConsentJson } from '../../api-types/indieauth';
import { api } from '../../lib/api';

export type { AppJson as SigningInApp, ConsentJson } from '../../api-types/indieauth';

/** The app asking and what it asks, or where the browser goes at once (a request refused). */
export async function checkRequest(query: string, signal?: AbortSignal): Promise<ConsentJson> {
  const { data } = await api.post<ConsentJson>('/api/my/indieauth/check', { query }, signal ? { signal } : {});
  return data;
}

/** Approves with the scopes ticked; answers the app's address with its code. */
export async function approveRequest(query: string, scopes: string[]): Promise<string> {
  const { data } = await api.post<Answered>('/api/my/indieauth/approve', { query, scopes });
  return data.redirectTo;
}

/** Refuses; answers the app's address with `access_denied`. */
export async function refuseRequest(query: string): Promise<string> {
  const { data } = await api.post<Answered>('/api/my/indieauth/refuse', { query });
  return data.redirectTo;
}
