import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, type Location } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { useAuth } from '@/lib/auth';

/** Routes that need a signed-in user send everyone else to /login, remembering where they were going. */
export function RequireAuth() {
  const { isAuthenticated, appLoading, exitTo } = useAuth();
  const location = useLocation();
  if (appLoading) return <Spinner />;
  if (!isAuthenticated) {
    if (exitTo) return <Navigate to={exitTo} replace />;
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  return <Outlet />;
}

/** Login, signup and demo-login: a signed-in user is sent back one step (or home). */
export function SignedOutOnly() {
  const { isAuthenticated, appLoading } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: Location } | null)?.from;

  useEffect(() => {
    if (appLoading || !isAuthenticated) return;
    if (from) navigate(from.pathname + from.search, { replace: true });
    // The first entry of a session has the key 'default': there is nothing of this app to go back to.
    else if (location.key !== 'default') navigate(-1);
    else navigate('/', { replace: true });
  }, [appLoading, isAuthenticated, from, navigate, location.key]);

  if (appLoading) return <Spinner />;
  if (isAuthenticated) return null;
  return <Outlet />;
}
