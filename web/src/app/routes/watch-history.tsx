import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/ui/primitives';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useWatchHistory } from '@/features/users/api/users.api';

export default function WatchHistoryPage() {
  const { t } = useTranslation('app');
  const q = useWatchHistory();
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>{t('profile.watchHistory')}</PageTitle>
      <PagedVideoList query={q} pick={(p) => p.watchHistory} />
    </div>
  );
}
