import { PageTitle } from '@/components/ui/primitives';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useLikedVideos } from '@/features/likes/api/likes.api';

export default function LikedVideosPage() {
  const q = useLikedVideos();
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>Liked videos</PageTitle>
      <PagedVideoList query={q} pick={(p) => p.videos} />
    </div>
  );
}
