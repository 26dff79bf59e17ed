import type { LivePage } from '@reelhouse/contract';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useOnAir } from '../api/live.api';

/** The home page's Live tab: channels on air now, most viewers first. */
export function LiveFeed() {
  const q = useOnAir();
  return <PagedVideoList query={q} pick={(page: LivePage) => page.videos} empty="Nobody is live right now" />;
}
