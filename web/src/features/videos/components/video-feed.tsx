import { useTranslation } from 'react-i18next';
import { EmptyState, Spinner } from '@/components/ui/primitives';
import { SkeletonGrid, VideoCard, VideoGrid } from '@/components/ui/video-card';
import { mergePages, useVideoList, type VideoListParams } from '../api/videos.api';
import { CaptionMatchLine } from './caption-match';
import { useInfiniteScroll } from './use-infinite-scroll';

/** An infinite-scroll grid of videos. A failed load shows an empty list. */
export function VideoFeed({ params, enabled = true }: { params: VideoListParams; enabled?: boolean }) {
  const { t } = useTranslation('videos');
  const q = useVideoList(params, enabled);
  const videos = q.isError ? [] : mergePages(q.data?.pages);

  useInfiniteScroll({
    hasNextPage: !q.isError && Boolean(q.hasNextPage),
    isFetching: q.isFetching,
    loadMore: () => void q.fetchNextPage(),
  });

  if (q.isPending && enabled) return <SkeletonGrid />;
  if (videos.length === 0) return <EmptyState>{t('feed.empty')}</EmptyState>;
  return (
    <>
      <VideoGrid>
        {videos.map((v) =>
          v.captionMatch ? (
            <div key={v._id}>
              <VideoCard video={v} />
              <CaptionMatchLine videoId={v._id} match={v.captionMatch} />
            </div>
          ) : (
            <VideoCard key={v._id} video={v} />
          ),
        )}
      </VideoGrid>
      {q.isFetchingNextPage && <Spinner label={t('feed.loadingMore')} />}
    </>
  );
}
