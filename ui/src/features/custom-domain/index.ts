export { DomainPanel } from './domain-panel';
