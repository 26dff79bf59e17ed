import type { Role } from '@reelhouse/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet } from 'react-router';
import { EmptyState, PageTitle, Spinner } from '@/components/ui/primitives';
import { MailStatus } from '@/features/account-email/components/mail-status';
import { AdminBackups } from '@/features/admin/components/admin-backups';
import { AdminFederation } from '@/features/admin/components/admin-federation';
import { AdminJobs } from '@/features/admin/components/admin-jobs';
import { AdminOverview } from '@/features/admin/components/admin-overview';
import { AdminSettings } from '@/features/admin/components/admin-settings';
import { AdminUsers } from '@/features/admin/components/admin-users';
import { AdminVideos } from '@/features/admin/components/admin-videos';
import { AuditLog } from '@/features/admin/components/audit-log';
import { ReportQueue } from '@/features/admin/components/report-queue';
import { useInstance } from '@/features/instance/api/instance.api';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';

type AdminScreen = 'overview' | 'reports' | 'users' | 'videos' | 'jobs' | 'backups' | 'federation' | 'settings' | 'audit-log';

/**
 * The admin area's screens, and who may open each: moderators get the report queue and the audit
 * log. A screen `forFederation` is there only on a site that federates.
 */
export const ADMIN_SCREENS: { path: AdminScreen; roles: Role[]; forFederation?: true }[] = [
  { path: 'overview', roles: ['admin'] },
  { path: 'reports', roles: ['admin', 'moderator'] },
  { path: 'users', roles: ['admin'] },
  { path: 'videos', roles: ['admin'] },
  { path: 'jobs', roles: ['admin'] },
  { path: 'backups', roles: ['admin'] },
  { path: 'federation', roles: ['admin'], forFederation: true },
  { path: 'settings', roles: ['admin'] },
  { path: 'audit-log', roles: ['admin', 'moderator'] },
];

export const isStaff = (role: Role | undefined) => role === 'admin' || role === 'moderator';

/** Staff only; everyone else is told so rather than shown screens whose calls would all be refused. */
export default function AdminLayout() {
  const { t } = useTranslation('app');
  const role = useAuth().user?.role;
  const federates = useInstance().data?.federation === true;
  if (!isStaff(role)) return <EmptyState>{t('admin.staffOnly')}</EmptyState>;
  const labels: Record<AdminScreen, string> = {
    overview: t('admin.screens.overview'),
    reports: t('admin.screens.reports'),
    users: t('admin.screens.users'),
    videos: t('admin.screens.videos'),
    jobs: t('admin.screens.jobs'),
    backups: t('admin.screens.backups'),
    federation: t('admin.screens.federation'),
    settings: t('admin.screens.settings'),
    'audit-log': t('admin.screens.auditLog'),
  };
  const screens = ADMIN_SCREENS.filter((s) => s.roles.includes(role!) && (!s.forFederation || federates));
  return (
    <div className="mx-auto max-w-[1400px]">
      <PageTitle>{t('admin.title')}</PageTitle>
      <nav aria-label={t('admin.title')} className="mb-6 flex gap-1 overflow-x-auto border-b border-neutral-200 dark:border-neutral-800">
        {screens.map((s) => (
          <NavLink
            key={s.path}
            to={`/admin/${s.path}`}
            className={({ isActive }) =>
              cn(
                '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
                isActive
                  ? 'border-rose-600 text-neutral-900 dark:text-white'
                  : 'border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-white',
              )
            }
          >
            {labels[s.path]}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

/** An admin starts at the overview, a moderator at the reports. */
export function AdminIndex() {
  return <Navigate to={useAuth().user?.role === 'admin' ? 'overview' : 'reports'} replace />;
}

function AdminOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  if (useAuth().user?.role !== 'admin') return <EmptyState>{t('admin.adminsOnly')}</EmptyState>;
  return <>{children}</>;
}

export const OverviewPage = () => (
  <AdminOnly>
    <MailStatus />
    <AdminOverview />
  </AdminOnly>
);
export const UsersPage = () => (
  <AdminOnly>
    <AdminUsers />
  </AdminOnly>
);
export const VideosPage = () => (
  <AdminOnly>
    <AdminVideos />
  </AdminOnly>
);
export const JobsPage = () => (
  <AdminOnly>
    <AdminJobs />
  </AdminOnly>
);
export const BackupsPage = () => (
  <AdminOnly>
    <AdminBackups />
  </AdminOnly>
);
/** Blocked servers mean nothing on a site that does not federate, whose server does not serve them. */
function FederatingOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  const { data, isPending } = useInstance();
  if (isPending) return <Spinner />;
  if (!data?.federation) return <EmptyState>{t('admin.notFederating')}</EmptyState>;
  return <>{children}</>;
}

export const FederationPage = () => (
  <AdminOnly>
    <FederatingOnly>
      <AdminFederation />
    </FederatingOnly>
  </AdminOnly>
);
export const SettingsPage = () => (
  <AdminOnly>
    <AdminSettings />
  </AdminOnly>
);
export const ReportsPage = ReportQueue;
export const AuditLogPage = AuditLog;
