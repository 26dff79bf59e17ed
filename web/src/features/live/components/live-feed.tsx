import type { LivePage } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { PagedVideoList } from '@/components/ui/paged-video-list';
import { useOnAir } from '../api/live.api';

/** The home page's Live tab: channels on air now, most viewers first. */
export function LiveFeed() {
  const { t } = useTranslation('live');
  const q = useOnAir();
  return <PagedVideoList query={q} pick={(page: LivePage) => page.videos} empty={t('feed.empty')} />;
}
