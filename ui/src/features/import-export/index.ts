export { ImportExportPanel } from './import-export-panel';
