export { createSession, fetchSession, signOut, startSignIn } from './api';
export type { Session, SignInStart, User } from './api';
export { AuthCallback } from './auth-callback';
export { ID_TOKEN_MESSAGE } from './popup-message';
export type { IdTokenMessage } from './popup-message';
export { SignInPanel } from './sign-in-panel';
export type { SignInPanelProps } from './sign-in-panel';
export { SignOut } from './sign-out';
export { useRedirectWhenSignedIn } from './use-redirect-when-signed-in';
