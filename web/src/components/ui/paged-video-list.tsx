import type { VideoSummary } from '@reelhouse/contract';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, EmptyState } from './primitives';
import { SkeletonGrid, VideoCard, VideoGrid } from './video-card';

/** A grid of a paged list with a "Load more" button (history, liked videos). */
export function PagedVideoList<P>({
  query,
  pick,
  empty,
}: {
  query: UseInfiniteQueryResult<InfiniteData<P>, Error>;
  pick: (page: P) => VideoSummary[];
  empty?: string;
}) {
  const { t } = useTranslation('ui');
  if (query.isPending) return <SkeletonGrid />;
  const videos = query.isError ? [] : query.data.pages.flatMap(pick);
  if (videos.length === 0) return <EmptyState>{empty ?? t('pagedList.empty')}</EmptyState>;
  return (
    <>
      <VideoGrid>
        {videos.map((v, i) => (
          <VideoCard key={`${v._id}-${i}`} video={v} />
        ))}
      </VideoGrid>
      {query.hasNextPage && (
        <div className="mt-6 flex justify-center">
          <Button onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {t('pagedList.loadMore')}
          </Button>
        </div>
      )}
    </>
  );
}
