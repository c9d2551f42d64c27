import type { RouteObject } from 'react-router';
import { catalogDemos, paths } from '../../config/paths';
import { lazyScreen } from '../../lib/lazy-screen';

// The catalog is a developer area: its code is a chunk of its own (`import()`), fetched when it is first shown.
const catalog = () => import('../../features/catalog');
const CatalogLayout = lazyScreen(() => catalog().then((m) => m.CatalogLayout));
const CatalogIndex = lazyScreen(() => catalog().then((m) => m.CatalogIndex));

/** `/catalog` and one child route per demo (`catalogDemos`), in side-navigation order. */
export const catalogRoute: RouteObject = {
  path: paths.catalog,
  element: <CatalogLayout />,
  children: [
    { index: true, element: <CatalogIndex /> },
    ...catalogDemos.map(({ slug }): RouteObject => {
      const Demo = lazyScreen(() => catalog().then((m) => m.demoScreens[slug]));
      return { path: slug, element: <Demo /> };
    }),
  ],
};
