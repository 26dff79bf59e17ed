import { Suspense, lazy, useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { incrementViews, useVideo } from '@/features/videos/api/videos.api';
import { playerMedia } from '@/features/player/media-props';
import './embed.css';

const VideoPlayer = lazy(() => import('@/features/player'));
const noop = () => {};

/** The video's page on this site, opened outside the frame. */
function SiteLink({ videoId, children, className }: { videoId: string; children: React.ReactNode; className?: string }) {
  return (
    <a href={`/video/${encodeURIComponent(videoId)}`} target="_blank" rel="noopener" className={className}>
      {children}
    </a>
  );
}

/**
 * The embed page other sites frame (/embed/{id}): the player alone, full-window, with the title
 * linking to the video on the site. No top bar, sidebar or comments; nothing that needs sign-in.
 */
export default function EmbedPage() {
  const { t } = useTranslation('app');
  const { videoId = '' } = useParams();
  const q = useVideo(videoId);
  const video = q.data;

  useEffect(() => {
    if (video) document.title = video.title;
  }, [video]);

  const onViewCounted = useCallback(() => {
    incrementViews(videoId).catch(() => {});
  }, [videoId]);

  if (q.isPending) return <div className="fixed inset-0 bg-black" aria-busy="true" />;

  if (q.isError || !video || video.status !== 'ready') {
    const processing = video && video.status !== 'failed';
    return (
      <div role="alert" className="fixed inset-0 flex flex-col items-center justify-center gap-3 bg-black p-6 text-center text-white">
        <p className="text-lg font-semibold">{processing ? t('embed.processing') : t('embed.unavailable')}</p>
        <p className="max-w-sm text-sm text-neutral-400">{processing ? t('embed.tryAgain') : t('embed.unavailableHint')}</p>
        <SiteLink videoId={videoId} className="text-sm text-neutral-200 underline">
          {t('embed.openOnSite')}
        </SiteLink>
      </div>
    );
  }

  return (
    <div className="rh-embed fixed inset-0 bg-black">
      <Suspense fallback={<div className="h-full w-full bg-black" />}>
        <VideoPlayer
          {...playerMedia(video)}
          live={video.live?.status === 'live' && Boolean(video.hls)}
          theater={false}
          onTheaterChange={noop}
          onViewCounted={onViewCounted}
        />
      </Suspense>
      <div className="rh-embed-title pointer-events-none absolute inset-x-0 top-0 z-10 bg-gradient-to-b from-black/80 to-transparent px-4 pb-8 pt-3">
        <SiteLink videoId={video._id} className="pointer-events-auto block truncate text-base font-semibold text-white hover:underline">
          {video.title}
        </SiteLink>
        <p className="truncate text-xs text-neutral-300">{video.owner.fullName}</p>
      </div>
    </div>
  );
}
