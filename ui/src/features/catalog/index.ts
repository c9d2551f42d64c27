export { CatalogIndex } from './catalog-index';
export { CatalogLayout } from './catalog-layout';
export { demoScreens } from './demos';
