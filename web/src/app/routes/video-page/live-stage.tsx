import type { VideoDetail } from '@reelhouse/contract';
import { Suspense, type ReactNode } from 'react';
import { LiveBadge } from '@/features/live/components/live-badge';
import { LiveCountdown, LiveOver } from '@/features/live/components/live-countdown';
import { playerMedia } from '@/features/player/media-props';
import { VideoPlayer } from './lazy-player';

/**
 * What takes the player's place for a live video: the broadcast once its playlist answers, the
 * countdown before, a notice once it ended with nothing to play; null when the video is to be
 * played (a replay) or shown processing as any other.
 */
export function liveStageFor(
  video: VideoDetail,
  { onAir, theater, onTheaterChange, onViewCounted }: { onAir: boolean; theater: boolean; onTheaterChange: (t: boolean) => void; onViewCounted: () => void },
): ReactNode {
  const live = video.live;
  if (!live) return null;
  if (live.status === 'live' && onAir) {
    return (
      <Suspense fallback={<div className="aspect-video w-full animate-pulse rounded-xl bg-neutral-900" />}>
        <div className="relative">
          <VideoPlayer
            key={`${video._id}-live`}
            {...playerMedia(video)}
            live
            autoPlay
            theater={theater}
            onTheaterChange={onTheaterChange}
            onViewCounted={onViewCounted}
          />
          <LiveBadge className="pointer-events-none absolute start-3 top-3 z-10" />
        </div>
      </Suspense>
    );
  }
  if (live.status !== 'ended') return <LiveCountdown scheduledStart={live.status === 'upcoming' ? live.scheduledStart : null} poster={video.thumbnail.url} />;
  if (video.status === 'ready' && !video.hls && !video.videoFile.url) return <LiveOver />;
  return null;
}
