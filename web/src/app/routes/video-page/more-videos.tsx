import { CompactVideoCard } from '@/components/ui/video-card';
import { mergePages, useVideoList } from '@/features/videos/api/videos.api';

/** The side list beside the player: other videos to watch. */
export function MoreVideos({ currentId }: { currentId: string }) {
  const related = useVideoList({});
  const others = mergePages(related.data?.pages).filter((v) => v._id !== currentId).slice(0, 12);
  return (
    <aside className="w-full shrink-0 xl:w-[360px]" aria-label="More videos">
      {others.length > 0 && <h2 className="mb-3 font-semibold">More videos</h2>}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-1">
        {others.map((v) => (
          <CompactVideoCard key={v._id} video={v} />
        ))}
      </div>
    </aside>
  );
}
