import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { returnPathFrom } from '../../config/paths';
import { useLoad } from '../../lib/use-load';
import { fetchSession } from './api';

/**
 * Sends a visitor who is already signed in on to the owner area. Without a session, or when the
 * check fails, the page simply stays.
 */
export function useRedirectWhenSignedIn(): void {
  const navigate = useNavigate();
  const { search } = useLocation();
  const session = useLoad(fetchSession, []);
  const signedIn = session.status === 'ready' && session.data !== null;
  useEffect(() => {
    if (signedIn) navigate(returnPathFrom(search), { replace: true });
  }, [signedIn, navigate, search]);
}
