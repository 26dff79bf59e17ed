import { NavLink } from 'react-router';
import { HomeIcon, KeyIcon, ListIcon, LiveIcon, ShieldIcon, UploadIcon, UserIcon } from '@/components/ui/icons';
import { useInstance } from '@/features/instance/api/instance.api';
import { cn } from '@/lib/cn';
import { useAuth } from '@/lib/auth';
import { useUi } from '@/lib/ui';
import { FollowedChannels } from '@/features/subscriptions/components/followed-channels';

export function Sidebar() {
  const { sidebarOpen } = useUi();
  const { isAuthenticated, user } = useAuth();
  const base = isAuthenticated && user ? `/${user.username}` : null;

  const links = [
    { to: '/', label: 'Home', icon: HomeIcon, end: true },
    { to: base ? `${base}/add-video` : '/login', label: 'Add Video', icon: UploadIcon, end: false },
    { to: base ? `${base}/studio/live` : '/login', label: 'Go Live', icon: LiveIcon, end: false },
    { to: base ?? '/login', label: 'Profile', icon: UserIcon, end: true },
    { to: base ? `${base}/playlists` : '/login', label: 'Playlists', icon: ListIcon, end: false },
  ];
  // Staff get the admin area; visitors get the demo account while the site has it on.
  const demoOn = useInstance().data?.demoAccount ?? true;
  if (user?.role === 'admin' || user?.role === 'moderator') links.push({ to: '/admin', label: 'Admin', icon: ShieldIcon, end: false });
  if (!isAuthenticated && demoOn) links.push({ to: '/demo-login', label: 'Demo Account Login', icon: KeyIcon, end: false });

  return (
    <nav
      id="sidebar"
      aria-label="Main"
      hidden={!sidebarOpen}
      className={cn(
        'fixed bottom-0 left-0 top-14 z-30 w-60 overflow-y-auto border-r border-neutral-200 bg-white p-3 dark:border-neutral-800 dark:bg-[#0f0f0f]',
      )}
    >
      <ul className="flex flex-col gap-1">
        {links.map(({ to, label, icon: Icon, end }) => (
          <li key={label}>
            <NavLink
              to={to}
              end={end}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-4 rounded-lg px-3 py-2 text-sm font-medium',
                  isActive && to !== '/login'
                    ? 'bg-neutral-100 text-neutral-900 dark:bg-neutral-800 dark:text-white'
                    : 'text-neutral-700 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800',
                )
              }
            >
              <Icon width={20} height={20} />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
      {isAuthenticated && <FollowedChannels />}
      <p className="mt-6 border-t border-neutral-200 px-3 pt-4 text-xs text-neutral-500 dark:border-neutral-800">Reelhouse — self-hosted video</p>
    </nav>
  );
}
