import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { useForgetPositionsOnAccountChange } from '@/features/discovery/lib/use-position-tracking';
import { useSiteTitle } from '@/features/instance/api/instance.api';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useUi } from '@/lib/ui';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

// Only a signed-in account with an address to confirm sees the banner: the first visit does not download it.
const VerifyEmailBanner = lazy(() => import('@/features/account-email/components/verify-email-banner').then((m) => ({ default: m.VerifyEmailBanner })));

export function RootLayout() {
  const { t } = useTranslation('app');
  const { sidebarOpen, isMobile, setSidebarOpen } = useUi();
  const location = useLocation();
  const { exitTo, dispatch, user } = useAuth();
  useSiteTitle();
  useForgetPositionsOnAccountChange(user?._id ?? null);

  useEffect(() => {
    if (exitTo && location.pathname === exitTo) dispatch({ type: 'exit-reached' });
  }, [exitTo, location.pathname, dispatch]);

  // On a phone the sidebar is a drawer: close it after navigating.
  useEffect(() => {
    if (isMobile) setSidebarOpen(false);
  }, [location.pathname, isMobile, setSidebarOpen]);

  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-black"
      >
        {t('skipToContent')}
      </a>
      <TopBar />
      <Sidebar />
      {isMobile && sidebarOpen && <div className="fixed inset-0 top-14 z-20 bg-black/50" aria-hidden="true" onClick={() => setSidebarOpen(false)} />}
      <main id="main" className={cn('px-4 pb-16 pt-20 transition-[padding] sm:px-6', sidebarOpen && !isMobile && 'md:ps-66')}>
        {user && !user.emailVerified && (
          <Suspense fallback={null}>
            <VerifyEmailBanner />
          </Suspense>
        )}
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <ScrollRestoration />
    </div>
  );
}
