import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, type Location } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { useAuth } from '@/lib/auth';

/** Routes that need a signed-in user send everyone else to /login, remembering where they were going. */
export function RequireAuth() {
  const { isAuthenticated, appLoading } = useAuth();
  const location = useLocation();
  if (appLoading) return <Spinner />;
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}

/** True when the browser history has an entry of this app to go back to. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
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
    else if (canGoBack()) navigate(-1);
    else navigate('/', { replace: true });
  }, [appLoading, isAuthenticated, from, navigate]);

  if (appLoading) return <Spinner />;
  if (isAuthenticated) return null;
  return <Outlet />;
}
