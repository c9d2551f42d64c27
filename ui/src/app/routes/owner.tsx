import { Navigate, type RouteObject } from 'react-router';
import { paths } from '../../config/paths';
import { OwnerArea } from '../../features/owner';
import { lazyScreen } from '../../lib/lazy-screen';
import { OwnerNotFoundRoute } from './not-found';
import { loadEditPostRoute } from './post-edit';
import { loadNewPostRoute } from './post-new';
import { PostsRoute } from './posts';
import { PostsSearchRoute } from './posts-search';

// Screens a blogger does not need to reach the post list are chunks of their own (`import()`), fetched when
// first shown.
const NewPostRoute = lazyScreen(loadNewPostRoute);
const EditPostRoute = lazyScreen(loadEditPostRoute);
const ResponsesRoute = lazyScreen(() => import('./responses').then((m) => m.ResponsesRoute));
const OldRepliesRoute = lazyScreen(() => import('./responses').then((m) => m.OldRepliesRoute));
const TrashRoute = lazyScreen(() => import('./trash').then((m) => m.TrashRoute));
const SettingsRoute = lazyScreen(() => import('./settings').then((m) => m.SettingsRoute));
const AdminRoute = lazyScreen(() => import('./admin').then((m) => m.AdminRoute));
const IndieAuthRoute = lazyScreen(() => import('./indieauth').then((m) => m.IndieAuthRoute));

/** `/d/*`: the owner area, one layout route around every owner screen (the session gate, the shell). */
export const ownerRoute: RouteObject = {
  path: paths.dashboard,
  element: <OwnerArea />,
  children: [
    { index: true, element: <Navigate to={paths.posts} replace /> },
    { path: paths.posts, element: <PostsRoute /> },
    { path: paths.newPost, element: <NewPostRoute /> },
    { path: paths.postsSearch, element: <PostsSearchRoute /> },
    { path: paths.trash, element: <TrashRoute /> },
    { path: paths.editPostRoute, element: <EditPostRoute /> },
    { path: paths.responses, element: <ResponsesRoute /> },
    { path: paths.oldReplies, element: <OldRepliesRoute /> },
    { path: paths.settings, element: <SettingsRoute /> },
    { path: paths.admin, element: <AdminRoute /> },
    { path: paths.indieAuth, element: <IndieAuthRoute /> },
    { path: '*', element: <OwnerNotFoundRoute /> },
  ],
};
