import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { HomeIcon, KeyIcon, ListIcon, LiveIcon, ShieldIcon, UploadIcon, UserIcon } from '@/components/ui/icons';
import { useInstance } from '@/features/instance/api/instance.api';
import { cn } from '@/lib/cn';
import { useAuth } from '@/lib/auth';
import { useUi } from '@/lib/ui';
import { FollowedChannels } from '@/features/subscriptions/components/followed-channels';

export function Sidebar() {
  const { t } = useTranslation('app');
  const { sidebarOpen } = useUi();
  const { isAuthenticated, user } = useAuth();
  const base = isAuthenticated && user ? `/${user.username}` : null;

  const links = [
    { id: 'home', to: '/', label: t('sidebar.home'), icon: HomeIcon, end: true },
    { id: 'add-video', to: base ? `${base}/add-video` : '/login', label: t('sidebar.addVideo'), icon: UploadIcon, end: false },
    { id: 'go-live', to: base ? `${base}/studio/live` : '/login', label: t('sidebar.goLive'), icon: LiveIcon, end: false },
    { id: 'profile', to: base ?? '/login', label: t('sidebar.profile'), icon: UserIcon, end: true },
    { id: 'playlists', to: base ? `${base}/playlists` : '/login', label: t('sidebar.playlists'), icon: ListIcon, end: false },
  ];
  // Staff get the admin area; visitors get the demo account while the site has it on.
  const demoOn = useInstance().data?.demoAccount ?? true;
  if (user?.role === 'admin' || user?.role === 'moderator') links.push({ id: 'admin', to: '/admin', label: t('sidebar.admin'), icon: ShieldIcon, end: false });
  if (!isAuthenticated && demoOn) links.push({ id: 'demo-login', to: '/demo-login', label: t('sidebar.demoLogin'), icon: KeyIcon, end: false });

  return (
    <nav
      id="sidebar"
      aria-label={t('sidebar.navLabel')}
      hidden={!sidebarOpen}
      className={cn(
        'fixed bottom-0 start-0 top-14 z-30 w-60 overflow-y-auto border-e border-neutral-200 bg-white p-3 dark:border-neutral-800 dark:bg-[#0f0f0f]',
      )}
    >
      <ul className="flex flex-col gap-1">
        {links.map(({ id, to, label, icon: Icon, end }) => (
          <li key={id}>
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
      <p className="mt-6 border-t border-neutral-200 px-3 pt-4 text-xs text-neutral-500 dark:border-neutral-800">{t('sidebar.tagline')}</p>
    </nav>
  );
}
