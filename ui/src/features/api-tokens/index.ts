export { ApiTokensPanel, SCOPE_LABELS } from './api-tokens-panel';
export type { Scope } from './api';
