import { Spinner } from '@/components/ui/primitives';
import { useAdminStats } from '../api/admin.api';
import { formatBytes } from '../lib/format';
import { ErrorText, Figure, Section } from './admin-ui';

/** The site at a glance: accounts, videos by state, storage used and open reports. */
export function AdminOverview() {
  const { data: s, error, isPending } = useAdminStats();
  if (isPending) return <Spinner />;
  if (!s) return <ErrorText error={error} />;
  return (
    <Section title="Storage and totals">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <Figure label="Storage used" value={formatBytes(s.storageBytes)} detail="Uploaded sources kept, counted against quotas" />
        <Figure label="Accounts" value={s.users} detail={`${s.bannedUsers} banned · ${s.pendingApprovals} waiting for approval`} />
        <Figure label="Videos" value={s.videos.total} detail={`${s.publicVideos} public · ${s.videos.hidden} taken down`} />
        <Figure label="Open reports" value={s.openReports} />
        <Figure label="Ready" value={s.videos.ready} />
        <Figure label="Processing" value={s.videos.processing} />
        <Figure label="Failed" value={s.videos.failed} detail={s.videos.failed > 0 ? 'See Videos to retry them' : undefined} />
      </div>
    </Section>
  );
}
