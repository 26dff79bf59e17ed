import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Logo, MenuIcon, MoonIcon, SunIcon } from '@/components/ui/icons';
import { Avatar, Button } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { LanguagePicker } from '@/i18n/language-picker';
import { logout } from '@/features/auth/api/auth.api';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useUi } from '@/lib/ui';

// Only signed-in people have a bell: the signed-out first visit does not download it.
const NotificationBell = lazy(() => import('@/features/notifications/components/notification-bell').then((m) => ({ default: m.NotificationBell })));

export function TopBar() {
  const { t } = useTranslation('app');
  const { theme, toggleTheme, sidebarOpen, toggleSidebar } = useUi();
  const { isAuthenticated, user, dispatch } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();

  async function onLogout() {
    try {
      await logout();
    } catch (e) {
      toast.error(errorMessage(e, t('topBar.logoutFailed')));
    }
    // A guarded page then sends the user home rather than to /login.
    dispatch({ type: 'logout', exitTo: '/' });
    queryClient.clear();
    await navigate('/');
  }

  return (
    <header className="fixed inset-x-0 top-0 z-30 flex h-14 items-center justify-between gap-2 border-b border-neutral-200 bg-white/95 px-2 backdrop-blur sm:px-4 dark:border-neutral-800 dark:bg-[#0f0f0f]/95">
      <div className="flex items-center gap-1 sm:gap-3">
        <button
          type="button"
          onClick={toggleSidebar}
          aria-label={t('topBar.menu')}
          aria-expanded={sidebarOpen}
          aria-controls="sidebar"
          className="rounded-full p-2 hover:bg-neutral-100 dark:hover:bg-neutral-800"
        >
          <MenuIcon />
        </button>
        <Link to="/" className="flex items-center gap-1.5" aria-label={t('topBar.home')}>
          <Logo />
          {/* On a phone the logo alone stands for the name: the buttons beside it need the room, in any language. */}
          <span className="text-lg font-bold tracking-tight max-[420px]:sr-only">Reelhouse</span>
        </Link>
      </div>
      <div className="flex items-center gap-1 sm:gap-2">
        <LanguagePicker />
        <button
          type="button"
          onClick={toggleTheme}
          aria-label={theme === 'dark' ? t('topBar.lightTheme') : t('topBar.darkTheme')}
          title={t('topBar.toggleTheme')}
          className="rounded-full p-2 hover:bg-neutral-100 dark:hover:bg-neutral-800"
          data-testid="theme-toggle"
        >
          {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
        </button>
        {isAuthenticated && user ? (
          <>
            <Suspense fallback={<span className="inline-block size-10" />}>
              <NotificationBell />
            </Suspense>
            <Link to={`/${user.username}`} aria-label={t('topBar.yourProfile')} className="hidden sm:block">
              <Avatar src={user.avatar.url} alt="" size={32} />
            </Link>
            <Button size="sm" onClick={onLogout} className="whitespace-nowrap">
              {t('topBar.logout')}
            </Button>
          </>
        ) : (
          <>
            <Link
              to="/login"
              className="whitespace-nowrap rounded-full px-3 py-1.5 text-sm font-medium text-rose-600 ring-1 ring-neutral-300 hover:bg-rose-50 dark:text-rose-400 dark:ring-neutral-700 dark:hover:bg-neutral-800"
            >
              {t('topBar.login')}
            </Link>
            <Link to="/signup" className="whitespace-nowrap rounded-full bg-rose-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-rose-700">
              {t('topBar.signUp')}
            </Link>
          </>
        )}
      </div>
    </header>
  );
}
