export { BlogPanel } from './blog-panel';
export type { BlogPanelProps } from './blog-panel';
