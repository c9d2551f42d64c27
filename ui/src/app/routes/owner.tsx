import { Navigate, type RouteObject } from 'react-router';
import { paths } from '../../config/paths';
import { OwnerArea } from '../../features/owner';
import { OwnerNotFoundRoute } from './not-found';
import { EditPostRoute } from './post-edit';
import { NewPostRoute } from './post-new';
import { PostsRoute } from './posts';
import { PostsSearchRoute } from './posts-search';
import { RepliesRoute } from './replies';
import { SettingsRoute } from './settings';

/** `/d/*`: the owner area, one layout route around every owner screen (the session gate, the shell). */
export const ownerRoute: RouteObject = {
  path: paths.dashboard,
  element: <OwnerArea />,
  children: [
    { index: true, element: <Navigate to={paths.posts} replace /> },
    { path: paths.posts, element: <PostsRoute /> },
    { path: paths.newPost, element: <NewPostRoute /> },
    { path: paths.postsSearch, element: <PostsSearchRoute /> },
    { path: paths.editPostRoute, element: <EditPostRoute /> },
    { path: paths.replies, element: <RepliesRoute /> },
    { path: paths.settings, element: <SettingsRoute /> },
    { path: '*', element: <OwnerNotFoundRoute /> },
  ],
};
