export { ApiTokensPanel } from './api-tokens-panel';
