// The calls behind the API tokens panel (issue 37): the blog's personal tokens, which apps use to
// publish through Micropub; making one (the token itself is in that answer only) and revoking one.
import type { CreatedToken, TokenJson, TokenList } from '../../api-types/tokens';
import { api } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { CreatedToken, TokenJson as ApiToken } from '../../api-types/tokens';

/** The scopes a token may have, as the server names them (and matches them, exactly). */
export const SCOPES = ['create', 'update', 'delete', 'undelete', 'media', 'draft'] as const;
export type Scope = (typeof SCOPES)[number];

/** What a new token is made with: `expiresAt` (RFC 3339) left out for one that never expires. */
export interface NewToken {
  name: string;
  scopes: Scope[];
  expiresAt?: string;
}

const tokensPath = (blogId: number) => `/api/my/blogs/${blogId}/tokens`;

/** The blog's tokens, newest first. */
export async function fetchTokens(blogId: number, signal?: AbortSignal): Promise<TokenJson[]> {
  const { data } = await api.get<TokenList>(tokensPath(blogId), signal ? { signal } : {});
  return data.tokens;
}

/**
 * Makes a token; the answer holds the token itself, which no other answer shows. A 422 names
 * `name`, `scopes`, `expiresAt` or `blog` (too many tokens).
 */
export async function createToken(blogId: number, token: NewToken): Promise<CreatedToken> {
  const { data } = await api.post<CreatedToken>(tokensPath(blogId), token);
  return data;
}

/** Revokes a token: apps using it can no longer publish. A 404 means it is gone already. */
export async function revokeToken(blogId: number, tokenId: number): Promise<void> {
  await api.delete(`${tokensPath(blogId)}/${tokenId}`);
}
