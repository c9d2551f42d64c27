export { FediversePanel } from './fediverse-panel';
