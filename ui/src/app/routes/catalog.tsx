import type { RouteObject } from 'react-router';
import { catalogDemos, paths } from '../../config/paths';

// The catalog is a developer area: its code is a chunk of its own (`import()`), fetched when it is first shown.
const catalog = () => import('../../features/catalog');

/** `/catalog` and one child route per demo (`catalogDemos`), in side-navigation order. */
export const catalogRoute: RouteObject = {
  path: paths.catalog,
  lazy: async () => {
    const { CatalogLayout } = await catalog();
    return { element: <CatalogLayout /> };
  },
  children: [
    {
      index: true,
      lazy: async () => {
        const { CatalogIndex } = await catalog();
        return { element: <CatalogIndex /> };
      },
    },
    ...catalogDemos.map(
      ({ slug }): RouteObject => ({
        path: slug,
        lazy: async () => {
          const Screen = (await catalog()).demoScreens[slug];
          return { element: <Screen /> };
        },
      }),
    ),
  ],
};
