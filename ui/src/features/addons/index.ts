export { AddonsPanel } from './addons-panel';
