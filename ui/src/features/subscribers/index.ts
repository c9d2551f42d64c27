export { SubscribersPanel } from './subscribers-panel';
