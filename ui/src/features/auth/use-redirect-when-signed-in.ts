import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { fetchSession } from './api';

/**
 * Sends a visitor who is already signed in on to the owner area. Without a session, or when the
 * check fails, the page simply stays.
 */
export function useRedirectWhenSignedIn(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const controller = new AbortController();
    fetchSession(controller.signal).then(
      (session) => {
        if (session && !controller.signal.aborted) navigate(paths.posts, { replace: true });
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [navigate]);
}
