import { createContext, useContext } from 'react';
import type { User } from '../auth';
import type { Blog } from '../blogs';

/**
 * What every owner-area screen knows: who is signed in and their blog. A screen that changed the
 * blog calls `refreshBlog()` (features/blogs), which loads it again here for every screen.
 */
export interface Owner {
  user: User;
  blog: Blog;
  /** One of the instance's admins (`quire serve --admin`): the menu has Admin. */
  isAdmin: boolean;
}

export const OwnerContext = createContext<Owner | null>(null);

/** The signed-in owner and their blog; only inside the owner area (/d/*). */
export function useOwner(): Owner {
  const owner = useContext(OwnerContext);
  if (!owner) throw new Error('useOwner() is used outside the owner area');
  return owner;
}
