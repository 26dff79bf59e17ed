import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/ui/primitives';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useLikedVideos } from '@/features/likes/api/likes.api';

export default function LikedVideosPage() {
  const { t } = useTranslation('app');
  const q = useLikedVideos();
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>{t('profile.likedVideos')}</PageTitle>
      <PagedVideoList query={q} pick={(p) => p.videos} />
    </div>
  );
}
