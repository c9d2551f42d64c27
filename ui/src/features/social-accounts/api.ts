// The call behind the Social Accounts panel (docs/api.md, 'The blog'): connecting another sign-in
// account to the owner.
import type { Connected } from '../../api-types/social-accounts';
import { api } from '../../lib/api';
import type { SocialAccount } from '../blogs';

/** Connects the provider account a popup's ID token names to the signed-in user. */
export async function connectSocialAccount(idToken: string): Promise<SocialAccount> {
  const { data } = await api.post<Connected>('/api/my/social_accounts', { idToken });
  return data.socialAccount;
}
