export { OwnerArea } from './owner-area';
export { useOwner } from './owner-context';
export type { Owner } from './owner-context';
export { OwnerPage } from './owner-page';
