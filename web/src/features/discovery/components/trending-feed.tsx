import type { VideoPage } from '@reelhouse/contract';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useTrending } from '../api/discovery.api';

/** The home page's Trending tab: what was watched and liked most in the last week. */
export function TrendingFeed() {
  const q = useTrending();
  return <PagedVideoList query={q} pick={(page: VideoPage) => page.videos} />;
}
