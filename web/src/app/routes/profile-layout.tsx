import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useAuth } from '@/lib/auth';

/**
 * The {username} area belongs to the signed-in user. Another name's index goes to that channel;
 * another name's sub-page goes to the same sub-page of one's own area.
 */
export default function ProfileLayout() {
  const { username = '' } = useParams();
  const { user } = useAuth();
  const location = useLocation();
  if (!user) return null;
  if (username.toLowerCase() !== user.username.toLowerCase()) {
    const rest = location.pathname.split('/').slice(2).join('/');
    return <Navigate to={rest ? `/${user.username}/${rest}` : `/channel/${username}`} replace />;
  }
  return <Outlet />;
}
