import { PageTitle } from '@/components/ui/primitives';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useWatchHistory } from '@/features/users/api/users.api';

export default function WatchHistoryPage() {
  const q = useWatchHistory();
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>Watch history</PageTitle>
      <PagedVideoList query={q} pick={(p) => p.watchHistory} />
    </div>
  );
}
