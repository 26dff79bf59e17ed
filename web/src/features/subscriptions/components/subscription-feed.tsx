import type { VideoPage } from '@reelhouse/contract';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useSubscriptionFeed } from '../api/subscriptions.api';

/** The home page's Subscriptions tab: the newest videos of the followed channels. */
export function SubscriptionFeed() {
  const q = useSubscriptionFeed(true);
  return <PagedVideoList query={q} pick={(page: VideoPage) => page.videos} />;
}
