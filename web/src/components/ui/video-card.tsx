import type { LiveState, VideoSummary } from '@reelhouse/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { WatchProgress } from '@/features/discovery/components/watch-progress';
import { compactNumber, formatDuration, formatViews, timeAgo } from '@/lib/format';
import { hostOf } from '@/lib/origin';
import { GlobeIcon } from './icons';
import { Avatar } from './primitives';

/** A card's video; lists of lives (GET /videos/live) also carry the live state. */
type CardVideo = VideoSummary & { live?: LiveState };

const onAir = (video: CardVideo) => video.live?.status === 'live';

/** The red mark that replaces the duration of a video on air. */
function LiveMark({ small }: { small?: boolean }) {
  const { t } = useTranslation('ui');
  return (
    <span
      className={`absolute rounded bg-red-600 font-bold uppercase tracking-wide text-white ${small ? 'bottom-1 end-1 px-1 py-px text-[11px]' : 'bottom-2 end-2 px-1.5 py-0.5 text-xs'}`}
      data-testid="card-live-badge"
    >
      {t('videoCard.live')}
    </span>
  );
}

export function VideoCard({ video, actions }: { video: CardVideo; actions?: ReactNode }) {
  const { t } = useTranslation('ui');
  const processing = video.status !== 'ready';
  return (
    <article className="group flex flex-col gap-3" data-testid="video-card">
      <Link
        to={`/video/${video._id}`}
        className="relative block aspect-video overflow-hidden rounded-xl bg-neutral-200 dark:bg-neutral-800"
        tabIndex={-1}
        aria-hidden="true"
      >
        <img
          src={video.thumbnail.url}
          alt=""
          loading="lazy"
          className="h-full w-full object-cover transition-transform duration-200 group-hover:scale-[1.03]"
        />
        {onAir(video) ? (
          <LiveMark />
        ) : processing ? (
          <span className="absolute bottom-2 end-2 rounded bg-black/80 px-1.5 py-0.5 text-xs font-medium text-white">
            {video.status === 'failed' ? t('videoCard.failed') : t('videoCard.processing', { progress: video.progress })}
          </span>
        ) : video.duration > 0 ? (
          // A live has no duration until its replay is made.
          <span className="absolute bottom-2 end-2 rounded bg-black/80 px-1.5 py-0.5 text-xs font-medium text-white">{formatDuration(video.duration)}</span>
        ) : null}
        {!processing && !video.live && <WatchProgress videoId={video._id} duration={video.duration} watchPosition={video.watchPosition} />}
        {!video.isPublished && (
          <span className="absolute start-2 top-2 rounded bg-black/80 px-1.5 py-0.5 text-xs text-white">{t('videoCard.unpublished')}</span>
        )}
      </Link>
      <div className="flex gap-3">
        <Link
          to={`/channel/${video.owner.username}`}
          className="shrink-0"
          aria-label={t('videoCard.channel', { name: video.owner.fullName || video.owner.username })}
        >
          <Avatar src={video.owner.avatar.url} alt="" size={36} />
        </Link>
        <VideoCardText video={video} compact={false} />
        {actions}
      </div>
    </article>
  );
}

/** The dense side-list card of the player page: thumbnail on the left, text on the right. */
export function CompactVideoCard({ video }: { video: CardVideo }) {
  return (
    <article className="group flex gap-2" data-testid="compact-video-card">
      <Link
        to={`/video/${video._id}`}
        className="relative block aspect-video w-40 shrink-0 overflow-hidden rounded-lg bg-neutral-200 dark:bg-neutral-800"
        tabIndex={-1}
        aria-hidden="true"
      >
        <img src={video.thumbnail.url} alt="" loading="lazy" className="h-full w-full object-cover" />
        {onAir(video) ? (
          <LiveMark small />
        ) : video.duration > 0 ? (
          <span className="absolute bottom-1 end-1 rounded bg-black/80 px-1 py-px text-[11px] font-medium text-white">{formatDuration(video.duration)}</span>
        ) : null}
        <WatchProgress videoId={video._id} duration={video.duration} watchPosition={video.watchPosition} />
      </Link>
      <VideoCardText video={video} compact />
    </article>
  );
}

export function VideoCardSkeleton() {
  return (
    <div className="flex animate-pulse flex-col gap-3" aria-hidden="true" data-testid="video-skeleton">
      <div className="aspect-video rounded-xl bg-neutral-200 dark:bg-neutral-800" />
      <div className="flex gap-3">
        <div className="h-9 w-9 rounded-full bg-neutral-200 dark:bg-neutral-800" />
        <div className="flex-1 space-y-2">
          <div className="h-4 w-11/12 rounded bg-neutral-200 dark:bg-neutral-800" />
          <div className="h-3 w-2/3 rounded bg-neutral-200 dark:bg-neutral-800" />
        </div>
      </div>
    </div>
  );
}

export function VideoGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-1 gap-x-4 gap-y-8 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">{children}</div>;
}

export function SkeletonGrid({ count = 8 }: { count?: number }) {
  return (
    <VideoGrid>
      {Array.from({ length: count }, (_, i) => (
        <VideoCardSkeleton key={i} />
      ))}
    </VideoGrid>
  );
}

/** A globe beside the channel of a video from another server, named for screen readers. */
function RemoteMark({ url }: { url: string | undefined }) {
  const { t } = useTranslation('ui');
  const host = hostOf(url);
  if (!host) return null;
  const label = t('videoCard.remote', { host });
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex shrink-0" data-testid="card-remote-mark">
      <GlobeIcon width={14} height={14} />
    </span>
  );
}

/** Title, channel, views and age: the text of both card sizes. */
function VideoCardText({ video, compact }: { video: CardVideo; compact: boolean }) {
  const { t } = useTranslation('ui');
  const small = compact ? 'text-xs' : 'text-sm';
  return (
    <div className="min-w-0 flex-1">
      <h3 className={`line-clamp-2 text-sm font-semibold leading-5${compact ? '' : ' text-neutral-900 dark:text-neutral-50'}`}>
        <Link to={`/video/${video._id}`} className="hover:underline" title={video.title}>
          {video.title}
        </Link>
      </h3>
      <p className={`${compact ? 'mt-0.5' : 'mt-1'} flex items-center gap-1 ${small} text-neutral-600 dark:text-neutral-400`}>
        <Link to={`/channel/${video.owner.username}`} className="truncate hover:text-neutral-900 dark:hover:text-neutral-100">
          {video.owner.fullName || video.owner.username}
        </Link>
        {video.remote && <RemoteMark url={video.url} />}
      </p>
      <p className={`${small} text-neutral-600 dark:text-neutral-400`}>
        {onAir(video) ? (
          t('videoCard.watching', { count: video.live?.viewers ?? 0, formatted: compactNumber(video.live?.viewers ?? 0) })
        ) : (
          <>
            {formatViews(video.views)} <span aria-hidden="true">•</span> {timeAgo(video.createdAt)}
          </>
        )}
      </p>
    </div>
  );
}
