import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/primitives';
import { formatNumber } from '@/lib/format';
import { useAdminStats } from '../api/admin.api';
import { formatBytes } from '@/lib/format';
import { ErrorText, Figure, Section } from './admin-ui';

/** The site at a glance: accounts, videos by state, storage used and open reports. */
export function AdminOverview() {
  const { t } = useTranslation('admin');
  const { data: s, error, isPending } = useAdminStats();
  if (isPending) return <Spinner />;
  if (!s) return <ErrorText error={error} />;
  return (
    <Section title={t('overview.title')}>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <Figure label={t('overview.storageUsed')} value={formatBytes(s.storageBytes)} detail={t('overview.storageDetail')} />
        <Figure
          label={t('overview.accounts')}
          value={formatNumber(s.users)}
          detail={t('overview.accountsDetail', { banned: formatNumber(s.bannedUsers), waiting: formatNumber(s.pendingApprovals) })}
        />
        <Figure
          label={t('overview.videos')}
          value={formatNumber(s.videos.total)}
          detail={t('overview.videosDetail', { public: formatNumber(s.publicVideos), hidden: formatNumber(s.videos.hidden) })}
        />
        <Figure label={t('overview.openReports')} value={formatNumber(s.openReports)} />
        <Figure label={t('overview.ready')} value={formatNumber(s.videos.ready)} />
        <Figure label={t('overview.processing')} value={formatNumber(s.videos.processing)} />
        <Figure label={t('overview.failed')} value={formatNumber(s.videos.failed)} detail={s.videos.failed > 0 ? t('overview.failedDetail') : undefined} />
      </div>
    </Section>
  );
}
