import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState, PageTitle } from '@/components/ui/primitives';
import { SkeletonGrid } from '@/components/ui/video-card';
import { useChannel } from '@/features/channels/api/channels.api';
import { VideoFeed } from '@/features/videos/components/video-feed';
import { errorMessage } from '@/lib/api-client';

export default function ChannelVideosPage() {
  const { t } = useTranslation('app');
  const { channelName = '' } = useParams();
  const q = useChannel(channelName);
  return (
    <div className="mx-auto max-w-[1500px]">
      <PageTitle>
        <Link to={`/channel/${channelName}`} className="hover:underline">
          {q.data?.fullName ?? channelName}
        </Link>{' '}
        <span className="font-normal text-neutral-500">{t('channel.videosHeading')}</span>
      </PageTitle>
      {q.isPending ? (
        <SkeletonGrid />
      ) : q.isError ? (
        <EmptyState>{errorMessage(q.error, t('channel.notFound'))}</EmptyState>
      ) : (
        <VideoFeed params={{ userId: q.data._id }} />
      )}
    </div>
  );
}
