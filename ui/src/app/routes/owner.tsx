import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { paths } from '../../config/paths';
import { OwnerArea } from '../../features/owner';
import { OwnerNotFoundRoute } from './not-found';
import { loadEditPostRoute } from './post-edit';
import { loadNewPostRoute } from './post-new';
import { PostsRoute } from './posts';
import { PostsSearchRoute } from './posts-search';

// Screens a blogger does not need to reach the post list are chunks of their own (`import()`), fetched when
// first shown: the router loads one before it shows the screen.
const lazyScreen = (load: () => Promise<ComponentType>) => async () => {
  const Screen = await load();
  return { element: <Screen /> };
};

/** `/d/*`: the owner area, one layout route around every owner screen (the session gate, the shell). */
export const ownerRoute: RouteObject = {
  path: paths.dashboard,
  element: <OwnerArea />,
  children: [
    { index: true, element: <Navigate to={paths.posts} replace /> },
    { path: paths.posts, element: <PostsRoute /> },
    { path: paths.newPost, lazy: lazyScreen(loadNewPostRoute) },
    { path: paths.postsSearch, element: <PostsSearchRoute /> },
    { path: paths.editPostRoute, lazy: lazyScreen(loadEditPostRoute) },
    { path: paths.replies, lazy: lazyScreen(() => import('./replies').then((m) => m.RepliesRoute)) },
    { path: paths.settings, lazy: lazyScreen(() => import('./settings').then((m) => m.SettingsRoute)) },
    { path: '*', element: <OwnerNotFoundRoute /> },
  ],
};
