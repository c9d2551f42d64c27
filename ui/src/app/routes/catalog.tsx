import type { RouteObject } from 'react-router';
import { CatalogIndex, CatalogLayout, demoScreens } from '../../features/catalog';
import { catalogDemos, paths } from '../../config/paths';

/** `/catalog` and one child route per demo (`catalogDemos`), in side-navigation order. */
export const catalogRoute: RouteObject = {
  path: paths.catalog,
  element: <CatalogLayout />,
  children: [
    { index: true, element: <CatalogIndex /> },
    ...catalogDemos.map(({ slug }): RouteObject => {
      const Screen = demoScreens[slug];
      return { path: slug, element: <Screen /> };
    }),
  ],
};
