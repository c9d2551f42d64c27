export { AccountPanel } from './account-panel';
export type { AccountPanelProps } from './account-panel';
