export { SocialAccountsPanel } from './social-accounts-panel';
export type { SocialAccountsPanelProps } from './social-accounts-panel';
